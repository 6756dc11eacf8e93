// `npm run cli`: the operators' CLI runs the compiled app in dist/, which `npm run build` makes.
// Before a build there is none: say what to run instead of Node's stack trace.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (!existsSync(entry)) {
  process.stderr.write(
    "kassa: the CLI runs the built app: run `npm run build` first, then this command again.\n",
  );
  process.exit(1);
}
const run = spawnSync(process.execPath, [entry, ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
