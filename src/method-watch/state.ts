import { z } from "zod";
import { boardOnFirstUse, defineFamily } from "../store/claims/family.js";
import type { ClaimBoard } from "../store/claims/index.js";

// Each register's methods watch: one item of family `method-watch` on the claim board (key: the
// register's key), its state `watch` changed only through METHOD_WATCH.update (the form, a button and
// the check may change it at once; one wins, the others read again). The item's schedule is the
// register's next check (every METHOD_CHECK_MS while the watch is on).

export const METHOD_WATCH_FAMILY = "method-watch";
const WATCH_FIELD = "watch";

/** Methods kept in `seen` and episodes at most (a register lists a few dozen). */
const METHODS_KEPT = 200;
const code = z.string().min(1).max(40);
const percentText = z.string().regex(/^\d{1,3}(\.\d{1,8})?$/);

/** The failure rule: at least `sharePercent` % of at least `minInvoices` invoices in `windowMinutes`. */
export const failureRuleSchema = z.object({
  sharePercent: z.number().int().min(1).max(100),
  minInvoices: z.number().int().min(1).max(10_000),
  windowMinutes: z
    .number()
    .int()
    .min(5)
    .max(24 * 60),
});
export type FailureRule = z.infer<typeof failureRuleSchema>;

/**
 * The silence rule: no paid invoice with a method that is usually paid, for `factor` times its usual
 * gap at that hour over the last 28 days, never less than `floorHours` ("usual"); or for a fixed
 * number of hours ("fixed"); or not watched ("off").
 */
export const silenceRuleSchema = z.discriminatedUnion("mode", [
  z.object({
    mode: z.literal("usual"),
    factor: z.number().int().min(2).max(50),
    floorHours: z
      .number()
      .int()
      .min(1)
      .max(24 * 7),
  }),
  z.object({
    mode: z.literal("fixed"),
    hours: z
      .number()
      .int()
      .min(1)
      .max(24 * 14),
  }),
  z.object({ mode: z.literal("off") }),
]);
export type SilenceRule = z.infer<typeof silenceRuleSchema>;

export const DEFAULT_FAILURE_RULE: FailureRule = { sharePercent: 40, minInvoices: 8, windowMinutes: 60 };
export const DEFAULT_SILENCE_RULE: SilenceRule = { mode: "usual", factor: 4, floorHours: 2 };

/** What an admin set in `/paymethods watch`. */
export const watchSettingsSchema = z.object({
  channel: z.string().min(1).max(30),
  /** Users (`U…`) and user groups (`S…`) mentioned in an alert. */
  mention: z.array(z.string().regex(/^[UWS][A-Z0-9]{2,30}$/)).max(10),
  failure: failureRuleSchema,
  silence: silenceRuleSchema,
  /** Who set it (user id) and when (ISO). */
  by: z.string(),
  at: z.string(),
});
export type WatchSettings = z.infer<typeof watchSettingsSchema>;

/** A method as the last check saw it: on for payers (the merchant's own switch) and its surcharge. */
const seenMethodSchema = z.object({ on: z.boolean(), surcharge: percentText });
export type SeenMethod = z.infer<typeof seenMethodSchema>;

/** A message posted in the alert channel: the thread a later line goes into. */
const postedSchema = z.object({ channel: z.string(), ts: z.string() });

/**
 * One method's episode: from the first check that found it failing or silent until it has been
 * calm (below half the threshold) for METHOD_CALM_MS. `posted` absent: the alert is still owed.
 */
const episodeSchema = z.object({
  kind: z.enum(["failure", "silence"]),
  since: z.number().int(),
  posted: postedSchema.optional(),
  /** Since when the figures have been below half the threshold (absent while they are not). */
  calmSince: z.number().int().optional(),
});
export type Episode = z.infer<typeof episodeSchema>;

const watchStateSchema = z.object({
  v: z.literal(1),
  /** Absent while the watch is off (an admin turned it off, or never on): no check runs. */
  settings: watchSettingsSchema.optional(),
  /** The method list as the last check read it (absent before the first check: it only notes). */
  seen: z.object({ at: z.number().int(), methods: z.record(code, seenMethodSchema) }).optional(),
  episodes: z.record(code, episodeSchema),
  /** Methods snoozed until (epoch ms): no alert for them before then. */
  snoozed: z.record(code, z.number().int()),
  /** Since when the service's reads have failed; and when that was last said (once an hour at most). */
  failingSince: z.number().int().optional(),
  failingToldAt: z.number().int().optional(),
});
export type MethodWatchState = z.infer<typeof watchStateSchema>;

export const NO_WATCH: MethodWatchState = { v: 1, episodes: {}, snoozed: {} };

/** The family: one item per register with a watch; its state `watch`. */
export const METHOD_WATCH = defineFamily({
  name: METHOD_WATCH_FAMILY,
  fields: { [WATCH_FIELD]: watchStateSchema },
  kept: "while its register is connected (turned off, its settings are dropped and nothing is checked)",
});

/** Upper bound on methods kept in `seen` and `episodes` (what a check writes is cut to it). */
export const MAX_METHODS_KEPT = METHODS_KEPT;

/** The register's watch (none when nothing, or nothing readable, is stored). */
export async function readWatch(board: ClaimBoard, registerKey: string): Promise<MethodWatchState> {
  return (await METHOD_WATCH.read(board, registerKey, WATCH_FIELD)).value ?? NO_WATCH;
}

/** A read-change-compare-and-set of the register's watch; `change` returns the next state and a result. */
export function changeWatch<T>(
  board: ClaimBoard,
  registerKey: string,
  change: (current: MethodWatchState) => { next: MethodWatchState; result: T } | { result: T },
): Promise<T> {
  return METHOD_WATCH.update(
    board,
    registerKey,
    WATCH_FIELD,
    (stored) => change(stored.value ?? NO_WATCH),
    10,
  );
}

/** The methods watch as commands and buttons use it, on the claim board opened on first use. */
export class MethodWatches {
  private readonly board: () => Promise<ClaimBoard>;

  constructor(open: () => Promise<ClaimBoard>) {
    this.board = boardOnFirstUse(open);
  }

  async read(registerKey: string): Promise<MethodWatchState> {
    return readWatch(await this.board(), registerKey);
  }

  /** Turns the watch on (or changes its settings); its check is due at once. */
  async set(registerKey: string, settings: WatchSettings, now: number): Promise<"on" | "changed"> {
    const board = await this.board();
    const result = await changeWatch(board, registerKey, (current) => ({
      next: { ...current, settings },
      result: current.settings ? ("changed" as const) : ("on" as const),
    }));
    await board.enlist(METHOD_WATCH_FAMILY, registerKey, now);
    await board.nudge(METHOD_WATCH_FAMILY, registerKey, now);
    return result;
  }

  /** Turns the watch off: settings and episodes dropped; the methods seen kept (turned on again, a
   * change made meanwhile is still news). The settings it had; undefined when it was off. */
  async off(registerKey: string): Promise<WatchSettings | undefined> {
    return changeWatch(await this.board(), registerKey, (current) => {
      if (!current.settings) return { result: undefined };
      const { settings, ...rest } = current;
      return { next: { ...rest, episodes: {}, snoozed: {} }, result: settings };
    });
  }

  /** Snoozes a method's alerts until `until` (its episode, if any, ends without a calm line). */
  async snooze(registerKey: string, method: string, until: number): Promise<boolean> {
    return changeWatch(await this.board(), registerKey, (current) => {
      if (!current.settings) return { result: false };
      const { [method]: _, ...episodes } = current.episodes;
      return {
        next: { ...current, episodes, snoozed: { ...current.snoozed, [method]: until } },
        result: true,
      };
    });
  }

  /** A register disconnected or uninstalled: its watch is forgotten. */
  async forget(registerKey: string): Promise<void> {
    await (await this.board()).drop(METHOD_WATCH_FAMILY, registerKey);
  }
}
