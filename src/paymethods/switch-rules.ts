import { Big, compareDecimals } from "../payments/decimal.js";
import { type MethodEdit, type PaymentMethod, TEST_METHOD } from "../payments/model.js";
import { type MethodSwitchState, SWITCH_DONE_KEPT, type SwitchWant } from "./switch-state.js";

// What a switch decides from what it read, pure: whether a method already shows what is wanted, who
// made it so, whether it is the last incoming method on, and what a confirmation may do with the
// method's switch record (take it, or why not). switch.ts does the reading, sending and writing.

/** A `pending` switch answered "not sure" is given up after this long without the read showing it. */
export const UNSURE_GIVE_UP_MS = 10 * 60_000;

/** What a switch reads of a method: the merchant's own switch and the surcharge. */
export type MethodState = Pick<PaymentMethod, "switchedOn" | "extraCommissionPercent">;

/** The switch record's pending confirmation, and the last switch the service showed. */
export type PendingSwitch = NonNullable<MethodSwitchState["pending"]>;
export type LastSwitch = NonNullable<MethodSwitchState["last"]>;

/** A confirmation as the record keeps it: its id (the modal's view id), what it wants, who asked. */
export type Confirmation = { id: string; want: SwitchWant; by: string };

const sameDecimal = (a: string, b: string) => compareDecimals(a, b) === 0;

/** The method shows everything `want` asks for (the merchant's own switch, the surcharge). */
export function shows(
  method: Pick<PaymentMethod, "switchedOn" | "extraCommissionPercent">,
  want: SwitchWant,
) {
  if (want.on !== undefined && method.switchedOn !== want.on) return false;
  if (want.surcharge !== undefined && !sameDecimal(method.extraCommissionPercent, want.surcharge))
    return false;
  return true;
}

/** Two wants ask for the same. */
export function sameWant(a: SwitchWant, b: SwitchWant): boolean {
  const surcharge =
    a.surcharge === undefined || b.surcharge === undefined
      ? a.surcharge === b.surcharge
      : sameDecimal(a.surcharge, b.surcharge);
  return a.on === b.on && surcharge;
}

/**
 * The last incoming method still on: switching `code` off would leave payers none. Counted are the
 * methods on at both ends (the merchant's switch and the service's), the register's TEST left out.
 */
export function lastIncomingOn(methods: readonly PaymentMethod[], code: string): boolean {
  return !methods.some(
    (method) => method.code !== code && method.code !== TEST_METHOD && method.switchedOn && method.enabled,
  );
}

/** What a method already showing the wanted state is put down to: Kassa's last switch, a change elsewhere, or nothing known. */
export type AlreadyBy =
  | { kind: "kassa"; by: string; at: number }
  | { kind: "outside"; since: number }
  | { kind: "unknown" };

/**
 * Who made the method show what is wanted: the record's `last` when it asked for this and the
 * service shows what it recorded; else a change outside Kassa when the watch last saw the method
 * otherwise (`seen`, at `seenAt`); else nothing known.
 */
export function alreadyBy(
  record: MethodSwitchState,
  method: PaymentMethod,
  want: SwitchWant,
  seen?: { at: number; on: boolean; surcharge: string } | undefined,
): AlreadyBy {
  const last = record.last;
  if (last && covers(last.want, want) && shows(method, lastShown(last))) {
    return { kind: "kassa", by: last.by, at: last.at };
  }
  if (seen && !shows({ switchedOn: seen.on, extraCommissionPercent: seen.surcharge }, want)) {
    return { kind: "outside", since: seen.at };
  }
  return { kind: "unknown" };
}

/** A last switch's want asked for (at least) what `want` asks. */
function covers(asked: SwitchWant, want: SwitchWant): boolean {
  if (want.on !== undefined && asked.on !== want.on) return false;
  if (
    want.surcharge !== undefined &&
    (asked.surcharge === undefined || !sameDecimal(asked.surcharge, want.surcharge))
  )
    return false;
  return true;
}

/** What the service showed after a last switch, as a want (both fields). */
const lastShown = (last: LastSwitch): SwitchWant => ({ on: last.on, surcharge: last.surcharge });

/** What a confirmation may do with the method's record before it sends. */
export type ClaimStep =
  /** Its id is in `done`: handled before (the same modal submitted again). */
  | { kind: "repeat"; last?: LastSwitch | undefined }
  /** Another confirmation (or this one) is being sent. */
  | { kind: "under_way"; by: string; id: string }
  /** This confirmation was sent and its answer lost: the next read of the method decides. */
  | { kind: "unsure"; pending: PendingSwitch }
  /** It may send: `next` holds it as pending; `replaced` an unsure one it takes the place of. */
  | { kind: "claimed"; next: MethodSwitchState; replaced?: PendingSwitch | undefined };

/** Takes the record for a confirmation, or says why not (see ClaimStep). */
export function claimStep(record: MethodSwitchState, confirmation: Confirmation, now: number): ClaimStep {
  if (record.done.includes(confirmation.id)) {
    return { kind: "repeat", last: record.last?.id === confirmation.id ? record.last : undefined };
  }
  const pending = record.pending;
  if (pending?.id === confirmation.id && pending.state === "unsure") return { kind: "unsure", pending };
  if (pending?.state === "sending") return { kind: "under_way", by: pending.by, id: pending.id };
  return {
    kind: "claimed",
    next: { ...record, pending: { ...confirmation, at: now, state: "sending" } },
    replaced: pending,
  };
}

/** The last switch as the service showed it after confirmation `confirmation`, read at `at`. */
export function lastOf(confirmation: Confirmation, method: MethodState, at: number): LastSwitch {
  return {
    id: confirmation.id,
    want: confirmation.want,
    by: confirmation.by,
    on: method.switchedOn,
    // The record keeps at most 8 decimals (the service shows two).
    surcharge: new Big(method.extraCommissionPercent).abs().round(8).toString(),
    at,
  };
}

/**
 * The record once confirmation `id` is over: its pending cleared (when it is still this one's), the
 * id remembered as handled, and `last` when the service showed what it asked for.
 */
export function finished(record: MethodSwitchState, id: string, last?: LastSwitch): MethodSwitchState {
  const { pending, ...rest } = record;
  const done = [...record.done.filter((one) => one !== id), id].slice(-SWITCH_DONE_KEPT);
  return {
    ...rest,
    ...(pending && pending.id !== id ? { pending } : {}),
    ...(last ? { last } : {}),
    done,
  };
}

/** The record with confirmation `id`'s pending switch marked "not sure" (unchanged when it is not pending). */
export function markedUnsure(record: MethodSwitchState, id: string): MethodSwitchState | undefined {
  if (record.pending?.id !== id) return undefined;
  return { ...record, pending: { ...record.pending, state: "unsure" } };
}

/** What a fresh read of the method does to a pending switch answered "not sure". */
export type Settled =
  | { kind: "none" }
  /** The read shows what it asked for: done, `next` records it as the last switch. */
  | { kind: "done"; pending: PendingSwitch; next: MethodSwitchState; last: LastSwitch }
  /** Not shown after UNSURE_GIVE_UP_MS: given up, `next` clears it. */
  | { kind: "given_up"; pending: PendingSwitch; next: MethodSwitchState };

/** Settles a "not sure" pending switch with a fresh read of its method at `now` (see Settled). */
export function settleStep(record: MethodSwitchState, method: MethodState | undefined, now: number): Settled {
  const pending = record.pending;
  if (pending?.state !== "unsure") return { kind: "none" };
  if (method && shows(method, pending.want)) {
    const last = lastOf(pending, method, now);
    return { kind: "done", pending, next: finished(record, pending.id, last), last };
  }
  if (now - pending.at < UNSURE_GIVE_UP_MS) return { kind: "none" };
  return { kind: "given_up", pending, next: finished(record, pending.id) };
}

/** The pending switch of confirmation `id` dropped (nothing was sent): the same form may try again. */
export function dropPending(record: MethodSwitchState, id: string): MethodSwitchState | undefined {
  if (record.pending?.id !== id) return undefined;
  const { pending: _, ...rest } = record;
  return rest;
}

/** The edit that asks for `want`. */
export function editOf(code: string, want: SwitchWant): MethodEdit {
  return {
    code,
    ...(want.on === undefined ? {} : { on: want.on }),
    ...(want.surcharge === undefined ? {} : { surchargePercent: want.surcharge }),
  };
}

/** What the method list says of a method's switch record: one under way, or the last one it still shows. */
export type SwitchNote =
  | { kind: "pending"; want: SwitchWant; by: string; unsure: boolean }
  | { kind: "last"; want: SwitchWant; by: string; at: number };

/** The note of a method's record, if any (a last switch the service no longer shows says nothing). */
export function noteOf(record: MethodSwitchState, method: MethodState): SwitchNote | undefined {
  const { pending, last } = record;
  if (pending)
    return { kind: "pending", want: pending.want, by: pending.by, unsure: pending.state === "unsure" };
  if (last && shows(method, lastShown(last)))
    return { kind: "last", want: last.want, by: last.by, at: last.at };
  return undefined;
}
