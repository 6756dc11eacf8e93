import { z } from "zod";
import { addDecimals, compareDecimals } from "../payments/decimal.js";
import { defineFamily } from "../store/claims/family.js";
import type { ClaimBoard } from "../store/claims/index.js";
import type { PayoutPolicy } from "./policy.js";
import { type PayoutRequest, type ReadRequest, readRequest, swapRequest } from "./request-model.js";

// The daily caps count every request of the register's day (UTC) that may still take money out, on
// the day its money leaves: a request made on one day and sent on a later one is counted again on
// the day of its send before it goes (countOnLeaveDay, refused when that day's caps would be passed)
// and from then on counts there only (`countsOn`).
// Those that count:
// waiting, approved, submitting, submitted, ended as paid, and sent outside Kassa (its quote submitted
// at the service without the approvals: the money left all the same). Each register's day is one item of
// family DAY_FAMILY listing its requests (id, requester, RUB amount); a new request is added by
// compare-and-set after the totals were counted from that very list, so two requests at once cannot
// both slip under a cap. The list is forgotten two days after its day (the worker drops it).

export const DAY_FAMILY = "payout-day";
export const ENTRIES_FIELD = "entries";
/**
 * Requests a register may have counting in one day (waiting, on their way or paid): a list read at
 * every request, so it stays short. Those that no longer count leave it at the next request.
 */
export const DAY_ENTRIES_MAX = 500;
/** An entry whose request was never stored (its process stopped in between) counts this long. */
const UNSTORED_COUNTS_MS = 10 * 60_000;
const MAX_ATTEMPTS = 8;

const entrySchema = z.object({
  id: z.string().min(1),
  requester: z.string().min(1),
  rub: z.string().regex(/^\d+(\.\d+)?$/),
  at: z.iso.datetime(),
});
const entriesSchema = z.array(entrySchema).max(DAY_ENTRIES_MAX);
type DayEntry = z.infer<typeof entrySchema>;

export type DayTotals = { requester: string; register: string };

export type CapRefusal =
  | { kind: "cap_reached"; cap: "requester" | "register"; limit: string; total: string }
  | { kind: "too_many_today" }
  /** The day's list is unreadable: the caps cannot be checked, so nothing is requested. */
  | { kind: "totals_unreadable" };

export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function dayKey(registerKey: string, now: Date): string {
  return `${registerKey}@${dayOf(now)}`;
}

/** The UTC day a request's money counts on: the day of its send once moved there, else the day it was made. */
export function countsOnDay(request: PayoutRequest): string {
  return request.countsOn ?? dayOf(new Date(request.createdAt));
}

/** Whether a request listed on `day` counts there (it may still take money out, or did, that day). */
async function counts(board: ClaimBoard, entry: DayEntry, day: string, now: Date): Promise<boolean> {
  const read = await readRequest(board, entry.id);
  if (!read) return now.getTime() - Date.parse(entry.at) < UNSTORED_COUNTS_MS;
  // Listed on a day before the one it counts on: it leaves later, and counts on that day instead.
  // (Listed on both while it is being moved: counted twice for that moment, never left out.)
  if (day < countsOnDay(read.request)) return false;
  const { status, service } = read.request;
  if (status === "ended") return service?.state === "payed";
  return ["waiting", "approved", "submitting", "submitted", "outside"].includes(status);
}

/** The entries still counting (their requests may take money out, or did): the rest never count again. */
async function liveEntries(board: ClaimBoard, entries: DayEntry[], now: Date): Promise<DayEntry[]> {
  const day = dayOf(now);
  const counted = await Promise.all(entries.map((entry) => counts(board, entry, day, now)));
  return entries.filter((_, index) => counted[index]);
}

function totalsOf(live: DayEntry[], requester: string): DayTotals {
  return {
    requester: addDecimals(
      ...live.filter((entry) => entry.requester === requester).map((entry) => entry.rub),
    ),
    register: addDecimals(...live.map((entry) => entry.rub)),
  };
}

/** The family: an item per register and UTC day (key `<register>@<day>`), its list; dropped two days after. */
const PAYOUT_DAYS = defineFamily({
  name: DAY_FAMILY,
  fields: { [ENTRIES_FIELD]: entriesSchema },
  kept: "two days after its day (the worker drops it)",
});

/** The requester's and the register's totals today (RUB), waiting requests included. */
export async function todayTotals(
  board: ClaimBoard,
  registerKey: string,
  requester: string,
  now: Date,
): Promise<DayTotals | undefined> {
  const day = await PAYOUT_DAYS.read(board, dayKey(registerKey, now), ENTRIES_FIELD);
  if (day.raw !== undefined && day.value === undefined) return undefined;
  return totalsOf(await liveEntries(board, day.value ?? [], now), requester);
}

/** Which cap `rub` more would pass (reaching a cap exactly is allowed); undefined: none. */
export function capPassed(
  totals: DayTotals,
  rub: string,
  policy: Pick<PayoutPolicy, "requesterDaily" | "registerDaily">,
): CapRefusal | undefined {
  if (compareDecimals(addDecimals(totals.requester, rub), policy.requesterDaily) > 0)
    return { kind: "cap_reached", cap: "requester", limit: policy.requesterDaily, total: totals.requester };
  if (compareDecimals(addDecimals(totals.register, rub), policy.registerDaily) > 0)
    return { kind: "cap_reached", cap: "register", limit: policy.registerDaily, total: totals.register };
  return undefined;
}

/**
 * Counts the day's totals and, when `entry.rub` more stays within both caps and fewer than
 * DAY_ENTRIES_MAX requests still count, adds the request to the day by compare-and-set (counted again
 * if another request came first), leaving out those that no longer count. The totals before it.
 */
export async function reserveToday(
  board: ClaimBoard,
  registerKey: string,
  entry: DayEntry,
  policy: Pick<PayoutPolicy, "requesterDaily" | "registerDaily">,
  now: Date,
): Promise<{ ok: true; totals: DayTotals } | { ok: false; refusal: CapRefusal }> {
  const key = dayKey(registerKey, now);
  type Reserved = { ok: true; totals: DayTotals } | { ok: false; refusal: CapRefusal };
  const reserved = await PAYOUT_DAYS.update<typeof ENTRIES_FIELD, Reserved>(
    board,
    key,
    ENTRIES_FIELD,
    async (stored) => {
      if (stored.raw !== undefined && stored.value === undefined)
        return { result: { ok: false, refusal: { kind: "totals_unreadable" } } };
      // Rejected, cancelled, expired, changed and refused requests (and unpaid ends) leave the list here.
      // The request itself (listed already by an earlier try) is counted once, as the entry added.
      const live = (await liveEntries(board, stored.value ?? [], now)).filter((one) => one.id !== entry.id);
      if (live.length >= DAY_ENTRIES_MAX)
        return { result: { ok: false, refusal: { kind: "too_many_today" } } };
      const totals = totalsOf(live, entry.requester);
      const passed = capPassed(totals, entry.rub, policy);
      if (passed) return { result: { ok: false, refusal: passed } };
      return { next: [...live, entry], result: { ok: true, totals } };
    },
    MAX_ATTEMPTS,
  );
  if (reserved.ok)
    await board.enlist(DAY_FAMILY, key, Date.parse(`${dayOf(now)}T00:00:00.000Z`) + 2 * 86_400_000);
  return reserved;
}

/** What counting a request on the day it leaves gave: its state (moved), or the cap it would pass. */
export type LeaveDay = { ok: true; read: ReadRequest } | { ok: false; refusal: CapRefusal };

/**
 * Just before a request's money leaves: when that is a later UTC day than the day it counts on, it is
 * added to this day's list only if this day's caps still allow it (reserveToday), then moved there
 * (`countsOn`, compare-and-set). Undefined when the request changed meanwhile (look again).
 */
export async function countOnLeaveDay(
  board: ClaimBoard,
  read: ReadRequest,
  policy: Pick<PayoutPolicy, "requesterDaily" | "registerDaily">,
  now: Date,
): Promise<LeaveDay | undefined> {
  const { request } = read;
  const today = dayOf(now);
  if (today <= countsOnDay(request) || request.rubAmount === null) return { ok: true, read };
  const entry = {
    id: request.id,
    requester: request.requester,
    rub: request.rubAmount,
    at: now.toISOString(),
  };
  const reserved = await reserveToday(board, request.registerKey, entry, policy, now);
  if (!reserved.ok) return reserved;
  const moved = await swapRequest(board, read, { ...request, countsOn: today });
  return moved ? { ok: true, read: moved } : undefined;
}
