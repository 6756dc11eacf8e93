// Imported first by the entry points (index.ts, cli.ts). ES modules run in the order they are
// imported, so on an older Node this stops the process with one line before any other module of
// Kassa (or its SQLite driver) loads.

/** The oldest Node line Kassa runs on: 22 LTS (better-sqlite3 13 needs it; Node 20 reached its end of life). */
export const MINIMUM_NODE_MAJOR = 22;

/** One line for the operator when `version` (process.versions.node) is too old; undefined when it will do. */
export function unsupportedNode(version: string): string | undefined {
  const major = Number.parseInt(version.split(".")[0] ?? "", 10);
  if (Number.isInteger(major) && major >= MINIMUM_NODE_MAJOR) return undefined;
  return `Node.js ${MINIMUM_NODE_MAJOR} or newer is needed (22 LTS, 24 LTS or later); this is Node.js ${version}.`;
}

const problem = unsupportedNode(process.versions.node);
if (problem) {
  process.stderr.write(`kassa: ${problem}\n`);
  process.exit(1);
}
