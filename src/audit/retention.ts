import { z } from "zod";
import type { AuditLink } from "./chain.js";
import type { AuditEntry } from "./entry.js";

// Retention: days older than AUDIT_RETENTION_DAYS are removed whole, always a prefix of the chain
// (times never go back along a chain), and the removal is itself an entry. It records which
// entries went and the hash the oldest kept entry chains from, so verification can start there.

const DAY_MS = 86_400_000;
const HASH = z.string().regex(/^[0-9a-f]{64}$/);

/** The removal entry's `before`: the entries removed, and the last one's hash. */
export const removedRangeSchema = z.object({
  fromSeq: z.number().int().positive(),
  toSeq: z.number().int().positive(),
  firstTime: z.string(),
  lastTime: z.string(),
  /** The hash of entry `toSeq`: the previous hash of the oldest entry kept. */
  lastHash: HASH,
});
export type RemovedRange = z.output<typeof removedRangeSchema>;

/** A removal entry's `before`, when it is one (undefined otherwise). */
export function removedRangeOf(entry: AuditEntry): RemovedRange | undefined {
  if (entry.action !== "audit.days_removed") return undefined;
  const parsed = removedRangeSchema.safeParse(entry.before);
  return parsed.success ? parsed.data : undefined;
}

/** A UTC day, YYYY-MM-DD, as a time: its first millisecond. */
export function dayStart(day: string): number {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day (YYYY-MM-DD): ${day}`);
  const at = Date.parse(`${day}T00:00:00.000Z`);
  if (!Number.isFinite(at) || new Date(at).toISOString().slice(0, 10) !== day)
    throw new Error(`not a day: ${day}`);
  return at;
}

/** The first day kept at `now` with `retentionDays` kept (today counts as one): days before it go. */
export function retentionCutoff(now: number, retentionDays: number): string {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  return new Date(today - (retentionDays - 1) * DAY_MS).toISOString().slice(0, 10);
}

/** The entry that records removing `first`..`last` (a prefix of the chain) before `cutoffDay`. */
export function removalEntry(
  team: string,
  first: AuditLink,
  last: AuditLink,
  cutoffDay: string,
  time: string,
): AuditEntry {
  const range: RemovedRange = {
    fromSeq: first.seq,
    toSeq: last.seq,
    firstTime: new Date(first.at).toISOString(),
    lastTime: new Date(last.at).toISOString(),
    lastHash: last.hash,
  };
  return {
    time,
    team,
    actor: "kassa",
    action: "audit.days_removed",
    object: `entries ${first.seq} to ${last.seq}`,
    before: range,
    after: { keptFrom: cutoffDay, keptFromSeq: last.seq + 1 },
    outcome: "done",
  };
}
