import { type AuditRecorder, recordAct } from "../audit/index.js";
import type { PaymentMethod } from "../payments/model.js";
import type { ClaimBoard } from "../store/claims/index.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import type { Logger } from "../util/logger.js";
import { type MethodState, noteOf, type Settled, type SwitchNote, settleStep } from "./switch-rules.js";
import { changeSwitch, readSwitch, type SwitchWant, switchedCodes } from "./switch-state.js";

// A switch's acts in the audit trail, and a "not sure" switch settled by the next read of its method
// (a confirmation, the method list, the methods watch's check): each ends once, by compare-and-set.

/** What recording a switch's act and settling one use. */
export type SwitchRecordDeps = { audit: AuditRecorder; logger: Logger };

/** One act of a switch: done, refused by the service (its words), or failed (given up as unsure). */
export type SwitchAct = {
  registerKey: string;
  code: string;
  want: SwitchWant;
  by: string;
  outcome: "done" | "refused" | "failed";
  reason?: string;
  before?: { on: boolean; surcharge: string } | undefined;
  after?: { on: boolean; surcharge: string } | undefined;
};

/** The method as an entry's before/after: the merchant's switch and the surcharge. */
export const stateOf = (method: MethodState) => ({
  on: method.switchedOn,
  surcharge: method.extraCommissionPercent,
});

/** Records a switch's act (method.switched, or method.surcharge_set); never throws. */
export async function recordSwitch(deps: SwitchRecordDeps, act: SwitchAct): Promise<void> {
  const { team, name } = registerOfKey(act.registerKey);
  await recordAct(deps.audit, deps.logger, {
    team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: act.by,
    action: act.want.surcharge === undefined ? "method.switched" : "method.surcharge_set",
    object: `method ${act.code}`,
    outcome: act.outcome,
    ...(act.reason ? { reason: act.reason.slice(0, 200) } : {}),
    ...(act.before ? { before: act.before } : {}),
    after: act.after ?? wanted(act.want),
  });
}

const wanted = (want: SwitchWant) => ({
  ...(want.on === undefined ? {} : { on: want.on }),
  ...(want.surcharge === undefined ? {} : { surcharge: want.surcharge }),
});

/**
 * Settles a method's pending switch answered "not sure" with a fresh read of the method (`method`,
 * undefined when the service no longer lists it) at `now`: the read shows what it asked for, it is
 * recorded as the last switch and audited done; not shown after UNSURE_GIVE_UP_MS, it is cleared and
 * audited failed ("unsure"). Whoever reads first settles it; the others find nothing to do.
 */
export async function settleUnsure(
  deps: SwitchRecordDeps & { board: ClaimBoard },
  registerKey: string,
  code: string,
  method: MethodState | undefined,
  now: number,
): Promise<Settled["kind"]> {
  const settled = await changeSwitch<Settled>(deps.board, registerKey, code, (current) => {
    const step = settleStep(current, method, now);
    return step.kind === "none" ? { result: step } : { next: step.next, result: step };
  });
  if (settled.kind === "none") return "none";
  const { pending } = settled;
  await recordSwitch(deps, {
    registerKey,
    code,
    want: pending.want,
    by: pending.by,
    ...(settled.kind === "done"
      ? { outcome: "done", after: method && stateOf(method) }
      : { outcome: "failed", reason: "unsure" }),
  });
  return settled.kind;
}

/**
 * The method list's notes on `methods` (who switched each in Kassa, and when; a switch under way). A
 * list read (at `readAt`) after a switch was answered "not sure" settles it first, as any read does.
 */
export async function switchNotes(
  deps: SwitchRecordDeps & { board: ClaimBoard },
  registerKey: string,
  methods: readonly PaymentMethod[],
  at: { readAt: number; now: number },
): Promise<Map<string, SwitchNote>> {
  // One read for the register's switched methods; a record only for those on the page (most have none).
  const switched = new Set(await switchedCodes(deps.board, registerKey));
  const notes = await Promise.all(
    methods
      .filter((method) => switched.has(method.code))
      .map(async (method) => {
        let record = await readSwitch(deps.board, registerKey, method.code);
        if (record.pending?.state === "unsure" && at.readAt > record.pending.at) {
          await settleUnsure(deps, registerKey, method.code, method, at.now);
          record = await readSwitch(deps.board, registerKey, method.code);
        }
        return [method.code, noteOf(record, method)] as const;
      }),
  );
  return new Map(notes.flatMap(([code, note]) => (note ? [[code, note] as const] : [])));
}
