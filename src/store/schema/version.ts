import { StoreUnavailableError } from "../connection.js";

/**
 * One numbered step of an SQL engine's schema: the statements that take a store under `prefix`
 * from the step before to this one, run in one transaction with the version written after them.
 */
export type SqlStep = (prefix: string) => string[];

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

/** Refuses a store whose schema is newer than the steps this release knows. */
export function refuseNewer(found: number, known: number, where: string): void {
  if (found > known) throw new SchemaTooNewError(found, known, where);
}
