/**
 * The store engines a test run has: the one place that says so (docs/developing.md, "Tests").
 * - Contract suites, of engine code (the claim board, the audit chain, the schema and its upgrades,
 *   the store backends, Redis' scripts, leases, rate limits), run on every engine: contractEngines.
 * - Family logic on the claim board (payouts, exports owed, registers, payout policies, the feed
 *   ledger, callback keys, the live cards' queue) runs in memory (where the file has it) and on
 *   SQLite: familyEngines. Its engine code is the board's, which the contract suites run everywhere;
 *   a family file's case of engine code of its own (an upgrade step) takes contractEngines.
 * Redis and PostgreSQL are the run's own databases (test/global-setup.ts sets TEST_REDIS_URL and
 * TEST_POSTGRES_URL to them before any test file loads); one not set is skipped, and says so.
 */

export type EngineName = "memory" | "sqlite" | "redis" | "postgres";
/** The engines that are a store (STORE_URL): every one but the board in memory. */
export type StoreEngineName = Exclude<EngineName, "memory">;

export type Engine<Name extends EngineName = EngineName> = {
  readonly name: Name;
  /**
   * What openStore takes: the caller's SQLite file, or the run's own server database. Undefined in
   * memory (no store) and when the engine is skipped.
   */
  readonly url: string | undefined;
  /** Why the engine does not run here ("TEST_REDIS_URL not set"); undefined when it does. */
  readonly skipped: string | undefined;
};

function server<Name extends "redis" | "postgres">(name: Name, variable: string): Engine<Name> {
  const url = process.env[variable]?.trim() || undefined;
  return { name, url, skipped: url ? undefined : `${variable} not set` };
}

/** Redis, the run's own database (TEST_REDIS_URL). */
export const REDIS = server("redis", "TEST_REDIS_URL");
/** PostgreSQL, the run's own database (TEST_POSTGRES_URL). */
export const POSTGRES = server("postgres", "TEST_POSTGRES_URL");

/** The file's SQLite database (a path of its own), and whether it also runs in memory. */
type Local = { sqlite: string; memory?: boolean };

/** Memory (when asked) and SQLite: the engines every run has. */
function localEngines({ sqlite, memory = false }: Local): Engine[] {
  const file: Engine<"sqlite"> = { name: "sqlite", url: `sqlite://${sqlite}`, skipped: undefined };
  return memory ? [{ name: "memory", url: undefined, skipped: undefined }, file] : [file];
}

/** Every engine, for a contract suite: memory (when asked), SQLite, Redis, PostgreSQL. */
export function contractEngines(local: { sqlite: string; memory?: false }): Engine<StoreEngineName>[];
export function contractEngines(local: Local): Engine[];
export function contractEngines(local: Local): Engine[] {
  return [...localEngines(local), REDIS, POSTGRES];
}

/** The engines of family logic on the claim board: memory (when asked) and SQLite. */
export function familyEngines(local: { sqlite: string; memory?: false }): Engine<"sqlite">[];
export function familyEngines(local: Local): Engine[];
export function familyEngines(local: Local): Engine[] {
  return localEngines(local);
}

/** Says, once per file, which engines `suite` skips and why ("claim board: skipping redis (...)"). */
export function sayWhatIsSkipped(suite: string, engines: readonly Engine[]): void {
  for (const engine of engines)
    if (engine.skipped) console.log(`${suite}: skipping ${engine.name} (${engine.skipped})`);
}
