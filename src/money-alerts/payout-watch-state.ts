import { z } from "zod";
import { defineFamily } from "../store/claims/family.js";
import type { ClaimBoard } from "../store/claims/index.js";
import { PAYOUT_WATCH_FAMILY } from "./alerts.js";

// What the outside-payout watch keeps per register (family `payout-watch`, state `seen`), written
// only under the register's claim (a replica that lost it is refused).
// - ids: settled payouts already looked at, newest first;
// - audited: payouts written to the audit trail whose post is still owed;
// - quotes: the `created` quotes found by the last whole read, followed until they settle (a quote
//   submitted later keeps its place in the history, below newer payouts): each read goes on until it
//   has passed all of them;
// - read: a read longer than one check's pages, carried over (the next check goes on from `page`).

const SEEN_FIELD = "seen";
/** Settled ids kept: more than a read can meet again, so a payout never comes back as new. */
const SEEN_KEPT = 1000;
/** Payouts audited and waiting for their post (the channel refusing them) kept at most. */
export const AUDITED_KEPT = 100;
/** Quotes followed at most (the newest kept). */
const QUOTES_KEPT = 1000;

const quoteSchema = z.object({ id: z.string().min(1).max(200), since: z.number().int() });
export type FollowedQuote = z.infer<typeof quoteSchema>;

const readSchema = z.object({
  /** The next page to read. */
  page: z.number().int().min(2),
  /** The newest settled payout seen when the read began: it ends there (null: none seen, to the end). */
  until: z.string().nullable(),
  /** Whether the read has met `until` already. */
  met: z.boolean(),
  /** The quotes this read has met so far. */
  quotes: z.array(quoteSchema).max(QUOTES_KEPT),
});
export type WatchRead = z.infer<typeof readSchema>;

const seenV2 = z.object({
  v: z.literal(2),
  ids: z.array(z.string()).max(SEEN_KEPT),
  audited: z.array(z.string()).max(AUDITED_KEPT).optional(),
  quotes: z.array(quoteSchema).max(QUOTES_KEPT),
  read: readSchema.optional(),
});
export type WatchState = z.infer<typeof seenV2>;

/** The release before kept only the settled ids (and those audited): it follows no quote yet. */
const seenV1 = z.object({
  v: z.literal(1),
  ids: z.array(z.string()).max(SEEN_KEPT),
  audited: z.array(z.string()).max(AUDITED_KEPT).optional(),
});

/** The family: one item per register with Secret 2; its state `seen` (the release before's read as v2). */
const PAYOUT_WATCH = defineFamily({
  name: PAYOUT_WATCH_FAMILY,
  fields: {
    [SEEN_FIELD]: seenV2.or(seenV1.transform((before): WatchState => ({ ...before, v: 2, quotes: [] }))),
  },
  kept: "until its register is disconnected",
});

/** The register's watch state; undefined before its first read (or when unreadable: read afresh). */
export async function readWatchState(
  board: ClaimBoard,
  registerKey: string,
): Promise<WatchState | undefined> {
  return (await PAYOUT_WATCH.read(board, registerKey, SEEN_FIELD)).value;
}

/** Writes the state under the claim `token`; false when the claim is lost (nothing written). */
export function writeWatchState(
  board: ClaimBoard,
  registerKey: string,
  token: string,
  state: WatchState,
): Promise<boolean> {
  const kept: WatchState = {
    ...state,
    ids: state.ids.slice(0, SEEN_KEPT),
    quotes: state.quotes.slice(0, QUOTES_KEPT),
    ...(state.read ? { read: { ...state.read, quotes: state.read.quotes.slice(0, QUOTES_KEPT) } } : {}),
  };
  return PAYOUT_WATCH.write(board, registerKey, SEEN_FIELD, token, kept);
}

/** `state` with `id` noted as looked at (and no longer owed a post). */
export function noted(state: WatchState, id: string): WatchState {
  return {
    ...state,
    ids: [id, ...state.ids.filter((one) => one !== id)],
    audited: (state.audited ?? []).filter((one) => one !== id),
  };
}
