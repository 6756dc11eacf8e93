import { z } from "zod";
import { REF_PATTERN } from "../payments/marker.js";
import type { ClaimBoard } from "../store/claims/board.js";
import { defineFamily } from "../store/claims/family.js";
import { KEPT_AFTER_CLOSE_MS } from "./record.js";

// The links Kassa made, by register and day (issue 51): `/invoice unpaid` and the digests list a
// period's links from here instead of going through every record. One item per register and UTC day,
// its refs in order; written (compare-and-set) before the link's record, so every record has its
// day, and a day may name a ref whose record was never written (a refused begin): readers skip it.

export const LINK_DAY_FAMILY = "link-day";
const DAY_FIELD = "refs";
const DAY_MS = 86_400_000;
/** A link lives at most 3 days; its day is kept as long as its record may be. */
const KEPT_MS = 3 * DAY_MS + KEPT_AFTER_CLOSE_MS;
/** Many creates at once on one register and day: more tries than a usual change. */
const ATTEMPTS = 30;
/** How many day items one pass forgets at most. */
const FORGET_BATCH = 50;

const daySchema = z.object({ v: z.literal(1), refs: z.array(z.string().regex(REF_PATTERN)).max(50_000) });

export const LINK_DAYS = defineFamily({
  name: LINK_DAY_FAMILY,
  fields: { [DAY_FIELD]: daySchema },
  kept: `until ${Math.round(KEPT_MS / DAY_MS)} days after its day`,
});

/** "YYYY-MM-DD" (UTC) of an epoch ms. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

function dayKey(registerKey: string, day: string): string {
  return `${registerKey}:${day}`;
}

/**
 * Notes that `ref` was made at `at` in the register's day (once, however often asked); the day is
 * due to be forgotten once its links' records are. Throws when the store cannot keep it.
 */
export async function noteLinkDay(
  board: ClaimBoard,
  registerKey: string,
  ref: string,
  at: number,
): Promise<void> {
  const day = utcDay(at);
  const key = dayKey(registerKey, day);
  await LINK_DAYS.update(
    board,
    key,
    DAY_FIELD,
    (stored) => {
      const refs = stored.value?.refs ?? [];
      return refs.includes(ref)
        ? { result: undefined }
        : { next: { v: 1, refs: [...refs, ref] }, result: undefined };
    },
    ATTEMPTS,
  );
  await board.enlist(LINK_DAY_FAMILY, key, Date.parse(`${day}T00:00:00Z`) + DAY_MS + KEPT_MS);
}

/** The refs of the links made in [from, to) (epoch ms), by the days that span it (each day once). */
export async function refsMadeBetween(
  board: ClaimBoard,
  registerKey: string,
  from: number,
  to: number,
): Promise<string[]> {
  if (to <= from) return [];
  const days: string[] = [];
  for (let at = Date.parse(`${utcDay(from)}T00:00:00Z`); at < to; at += DAY_MS) days.push(utcDay(at));
  const read = await Promise.all(
    days.map(
      async (day) => (await LINK_DAYS.read(board, dayKey(registerKey, day), DAY_FIELD)).value?.refs ?? [],
    ),
  );
  return [...new Set(read.flat())];
}

/** Forgets the days whose links' records are gone (the links' pass calls it). */
export async function forgetOldDays(board: ClaimBoard, now: number): Promise<void> {
  for (const item of await board.claimDue(LINK_DAY_FAMILY, now, 60_000, FORGET_BATCH))
    await board.release(LINK_DAY_FAMILY, item.key, item.token, "forget");
}
