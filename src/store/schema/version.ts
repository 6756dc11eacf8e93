import { StoreUnavailableError } from "../connection.js";

/**
 * One numbered step of an SQL engine's schema: the statements that take a store under `prefix`
 * from the step before to this one, run in one transaction with the version written after them.
 */
export type SqlStep = (prefix: string) => string[];

/**
 * The version release 63116c6 (the last release) left every store at: the oldest this release
 * upgrades. A new store starts here at once (the baseline: the tables as that release left them);
 * the steps after it are numbered from BASELINE_VERSION + 1.
 */
export const BASELINE_VERSION = 8;
/** The release that upgrades a store older than BASELINE_VERSION to it (its one-shot data moves). */
export const UPGRADING_RELEASE = "63116c6";

/**
 * The store was upgraded by a newer release than this one (an operator rolled back): its tables
 * may hold what this release cannot read, so it refuses to start rather than guess.
 */
export class SchemaTooNewError extends StoreUnavailableError {
  constructor(found: number, known: number, where: string) {
    super(
      `the store's schema (${where}) is at version ${found}, but this release of Kassa knows versions up to ${known}: a newer release has upgraded it; run that release again, or restore the backup taken before the upgrade`,
    );
  }
}

/**
 * The store is older than this release upgrades directly: its data still waits for moves that only
 * release 63116c6 makes (dropped here one release after). It refuses to start and says which release
 * upgrades it; the store is left as it was.
 */
export class SchemaTooOldError extends StoreUnavailableError {
  constructor(found: number, where: string) {
    const at =
      found === 0
        ? "was written by a release before the schema version (c6ce3d1 or earlier)"
        : `is at version ${found}`;
    super(
      `the store's schema (${where}) ${at}, older than this release of Kassa upgrades (version ${BASELINE_VERSION}): start release ${UPGRADING_RELEASE} on it once, which upgrades it, then this release`,
    );
  }
}

/** Refuses a store whose schema is newer than the steps this release knows. */
export function refuseNewer(found: number, known: number, where: string): void {
  if (found > known) throw new SchemaTooNewError(found, known, where);
}

/**
 * Refuses a store this release cannot upgrade directly: one at a version below the baseline, or one
 * with no version that holds what an older release wrote (`holdsOlderData`). A store with no version
 * and nothing in it is new.
 */
export function refuseOlder(found: number, holdsOlderData: boolean, where: string): void {
  if ((found === 0 && holdsOlderData) || (found > 0 && found < BASELINE_VERSION))
    throw new SchemaTooOldError(found, where);
}
