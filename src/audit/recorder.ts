import type { Logger } from "../util/logger.js";
import type { AuditInput } from "./entry.js";
import type { AuditTrail } from "./trail.js";

/** What the app records acts with and reads them back with (/invoice audit). */
export type AuditLog = Pick<AuditTrail, "record" | "list" | "verify" | "head">;

/** What only records (whatever the stored entry it gives back). */
export type AuditRecorder = { record(input: AuditInput): Promise<unknown> };

/**
 * Records one act done through Kassa. The act has happened: a store that cannot take its entry now
 * is logged as an error (with what was done, never a secret) for the operator, and the person is
 * answered all the same; `verify` still holds, the entry is simply not there.
 */
export async function recordAct(audit: AuditRecorder, logger: Logger, input: AuditInput): Promise<void> {
  try {
    await audit.record(input);
  } catch (error) {
    logger.error(
      { team: input.team, action: input.action, object: input.object, err: error },
      "could not record an act in the audit trail",
    );
  }
}
