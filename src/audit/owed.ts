import { createHash, randomBytes } from "node:crypto";
import type { ClaimBoard, Enlisting } from "../store/claims/index.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { RepeatingPass } from "../util/repeating.js";
import { type AuditEntry, type AuditInput, auditEntrySchema } from "./entry.js";
import type { AuditRecorder } from "./recorder.js";

// An act and its audit entry are one: the entry is written as owed on the claim board in the same
// atomic step as the act's own write (swapState's `along`), then appended to the chain and forgotten.
// Should the store fail or the process die between the two, the entry stays owed and is appended at
// the next drain (after the next act, or by the background pass every replica runs), once each: the
// trail appends an entry of a given ref once, whoever hands it over and however often.

/** Family of the entries owed: an item per entry, keyed by its ref (time first, so key order is act order). */
export const AUDIT_OWED_FAMILY = "audit-owed";
const ENTRY_FIELD = "entry";
/** A drain's claim on the entries it took: many appends fit in it. */
const LEASE_MS = 60_000;
/** Entries claimed per round of a drain; a drain goes on until none is left. */
const BATCH = 50;
/** How often every replica drains what is owed besides after each act (and about a second after it starts). */
export const OWED_PASS_MS = 30_000;

/** An act's entry as owed: the item to enlist along the act's write. */
export type OwedEntry = Enlisting & { state: AuditEntry & { ref: string } };

let made = 0;

/**
 * The entry `input` owes, checked and given its ref: the act's time (ms, 15 digits), a number in this
 * process and random digits, so refs sort in the order the acts were made. Every owed item is due at
 * once (0): drains take them in key order, whatever the clocks say.
 */
export function owedEntry(input: AuditInput & { time: string }): OwedEntry {
  made = (made + 1) % 1_000_000;
  const at = String(Date.parse(input.time)).padStart(15, "0");
  return owedAs(input, `${at}.${String(made).padStart(6, "0")}.${randomBytes(6).toString("hex")}`);
}

/** The entry checked, with its ref, as the owed item keyed by that ref (due at once: drains go in key order). */
function owedAs(input: AuditInput & { time: string }, ref: string): OwedEntry {
  const state = { ...auditEntrySchema.parse({ ...input, ref }), ref };
  return { family: AUDIT_OWED_FAMILY, key: ref, dueAt: 0, field: ENTRY_FIELD, state };
}

/**
 * The entry of an act that its maker may note twice (a watch that dies between noting an act and
 * writing down that it did): its time and ref come from the act itself (`at`, ms; `id`), so however
 * often it is owed, the trail appends it once (it looks for the ref from the entry's time on).
 */
export function owedEntryOnce(input: AuditInput, act: { at: number; id: string }): OwedEntry {
  const digest = createHash("sha256").update(act.id).digest("hex").slice(0, 32);
  const at = Math.max(0, Math.floor(act.at));
  return owedAs(
    { ...input, time: new Date(at).toISOString() },
    `${String(at).padStart(15, "0")}.once.${digest}`,
  );
}

export type OwedDeps = {
  board: Pick<ClaimBoard, "claimDue" | "readState" | "release" | "enlistWith">;
  /** The trail (or what stands for it in a test): appends an entry of a given ref once. */
  audit: AuditRecorder;
  logger: Logger;
};

/** A drain under way per board in this process, and whether another was asked meanwhile. */
const draining = new WeakMap<object, { run: Promise<number>; again: boolean }>();

/**
 * Appends every entry owed on the board, oldest act first, and forgets each once appended: one drain
 * at a time per board in this process (one asked meanwhile runs right after). Never throws: a store
 * that does not answer leaves what is left owed, logged, for the next drain. Answers how many went.
 */
export function appendOwed(deps: OwedDeps, now: number): Promise<number> {
  const under = draining.get(deps.board);
  if (under) {
    under.again = true;
    return under.run;
  }
  const state = { run: Promise.resolve(0), again: false };
  state.run = (async () => {
    let appended = 0;
    do {
      state.again = false;
      appended += await drain(deps, now).catch((error: unknown) => {
        deps.logger.error({ err: error }, "could not append the audit entries owed; they stay owed");
        return 0;
      });
    } while (state.again);
    draining.delete(deps.board);
    return appended;
  })();
  draining.set(deps.board, state);
  return state.run;
}

async function drain(deps: OwedDeps, now: number): Promise<number> {
  const { board } = deps;
  let appended = 0;
  for (;;) {
    const claimed = await board.claimDue(AUDIT_OWED_FAMILY, now, LEASE_MS, BATCH);
    for (const [index, { key, token }] of claimed.entries()) {
      try {
        const entry = auditEntrySchema.safeParse(await board.readState(AUDIT_OWED_FAMILY, key, ENTRY_FIELD));
        if (entry.success) await deps.audit.record(entry.data);
        else deps.logger.error({ owed: key }, "an audit entry owed is unreadable; it is dropped");
        await board.release(AUDIT_OWED_FAMILY, key, token, "forget");
        if (entry.success) appended += 1;
      } catch (error) {
        // In order or not at all: this one and those after it stay owed, due at once again.
        for (const rest of claimed.slice(index))
          await board.release(AUDIT_OWED_FAMILY, rest.key, rest.token, { dueAt: 0 }).catch(() => false);
        throw error;
      }
    }
    if (claimed.length < BATCH) return appended;
  }
}

/**
 * An act with no write of its own (a refusal): its entry is written owed alone, then appended. Never
 * throws; a store that takes neither is logged, as recordAct does.
 */
export async function recordOwed(deps: OwedDeps, owed: OwedEntry, now: number): Promise<void> {
  try {
    await deps.board.enlistWith(owed);
  } catch (error) {
    const { team, action, object } = owed.state;
    deps.logger.error({ team, action, object, err: error }, "could not record an act in the audit trail");
    return;
  }
  await appendOwed(deps, now);
}

/** Every replica drains the entries owed every `intervalMs` (and about a second after it starts). */
export class OwedAuditRunner {
  private readonly loop: RepeatingPass;

  constructor(deps: OwedDeps, options: { intervalMs: number; clock: Clock }) {
    this.loop = new RepeatingPass(() => appendOwed(deps, options.clock.now()), {
      intervalMs: () => options.intervalMs,
      failed: (error) => deps.logger.error({ err: error }, "audit owed pass failed"),
      clock: options.clock,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One drain now, after the one under way (tests drive it this way). */
  passNow(): Promise<void> {
    return this.loop.runNow();
  }

  close(graceMs = 3000): Promise<void> {
    return this.loop.close(graceMs);
  }
}
