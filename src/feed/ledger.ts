import { type ClaimBoard, openClaimBoard } from "../store/claims/index.js";
import { DEFAULT_STORE_TIMEOUT_MS } from "../store/deadline.js";
import type { KeyvStore } from "../store/keyv.js";

/** One workspace's feed, claimed for a turn: `token` is this claim's own (a fencing token). */
export type FeedTurnClaim = { team: string; token: string };

/**
 * Who works each workspace's feed, when, and what each of its channels knows, shared by every
 * replica through the store engine's own atomic primitives (one SQL statement or transaction, one
 * Lua script), as the live cards' queue does:
 * - a workspace is claimed for a turn by one replica at a time, due ones oldest first (so replicas
 *   take workspaces round-robin), under a lease the turn renews while it works; another replica
 *   claims it only once that lease has run out (the claimer died or stalled);
 * - every claim has a new token, and a channel's state is written only while that token still holds
 *   the workspace: whatever a turn writes after losing its lease is refused, so it stops there.
 * Times are epoch ms from the caller's clock, like the watch queue's.
 */
export interface FeedLedger {
  /** Makes `team` a feed workspace, due at `dueAt`; one already enlisted keeps its schedule. */
  enlist(team: string, dueAt: number): Promise<void>;
  /** Up to `limit` due workspaces no turn holds, oldest due first, each claimed until now + leaseMs. */
  claim(now: number, leaseMs: number, limit: number): Promise<FeedTurnClaim[]>;
  /** Extends the claim to now + leaseMs; false when another claim took the workspace (stop). */
  renew(team: string, token: string, now: number, leaseMs: number): Promise<boolean>;
  /**
   * Ends the turn: the workspace is free and due at `dueAt`, or at once when nudged meanwhile.
   * False when the claim was no longer this token's (nothing changed).
   */
  release(team: string, token: string, dueAt: number): Promise<boolean>;
  /** Something changed (a payment callback): due at once; a turn under way reads again after it. */
  nudge(team: string, now: number): Promise<void>;
  /** A channel's state as last written (undefined: none). Not parsed here: the caller does. */
  readState(team: string, channel: string): Promise<unknown>;
  /** Writes a channel's state while `token` holds the workspace's turn; false (nothing written) otherwise. */
  writeState(team: string, channel: string, token: string, state: unknown): Promise<boolean>;
  /** Removes a channel's state (unsubscribe), whoever holds the turn. */
  deleteState(team: string, channel: string): Promise<void>;
  /** Forgets the workspace: its schedule and every channel's state (its last feed gone, uninstall). */
  drop(team: string): Promise<void>;
}

/** The board's family of the feed's turns: a workspace is an item, its channels' states the item's. */
const FAMILY = "feed";

/**
 * The feed ledger on the store's claim board (src/store/claims/): a workspace's turn is a claim of
 * its item, a channel's state one of the item's states, written only under the turn's claim.
 */
export function feedLedgerOn(board: ClaimBoard): FeedLedger {
  return {
    enlist: (team, dueAt) => board.enlist(FAMILY, team, dueAt),
    claim: async (now, leaseMs, limit) =>
      (await board.claimDue(FAMILY, now, leaseMs, limit)).map(({ key, token }) => ({ team: key, token })),
    renew: (team, token, now, leaseMs) => board.renew(FAMILY, team, token, now, leaseMs),
    release: (team, token, dueAt) => board.release(FAMILY, team, token, { dueAt }),
    nudge: (team, now) => board.nudge(FAMILY, team, now),
    readState: (team, channel) => board.readState(FAMILY, team, channel),
    writeState: (team, channel, token, state) => board.writeState(FAMILY, team, channel, token, state),
    deleteState: (team, channel) => board.deleteState(FAMILY, team, channel),
    drop: (team) => board.drop(FAMILY, team),
  };
}

/**
 * The ledger on the claim board of the store engine behind STORE_URL, each call bounded by
 * `timeoutMs` (STORE_TIMEOUT_MS): a store that stops answering fails a turn instead of holding it. A
 * late write that still lands is fenced all the same (the engine checks the claim when it runs it).
 * `namespace`: the board's prefix (tests give each run its own).
 */
export async function openFeedLedger(
  store: KeyvStore,
  namespace?: string,
  timeoutMs = DEFAULT_STORE_TIMEOUT_MS,
): Promise<FeedLedger> {
  return feedLedgerOn(await openClaimBoard(store, namespace, timeoutMs));
}
