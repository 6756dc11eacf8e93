import { randomBytes } from "node:crypto";
import { z } from "zod";
import { boardOnFirstUse, defineFamily } from "./claims/family.js";
import { type ClaimBoard, openClaimBoard } from "./claims/index.js";
import type { KeyvStore } from "./connection.js";
import { DEFAULT_PREFIX } from "./schema/names.js";

// Each workspace's callback address ends in a random key, not its team id: the address is given to
// the payment service and to the merchant's own servers, and must not say whose it is nor be guessed.
// Two states on the claim board (src/store/claims/) per workspace: the team's current key (family
// "callback", to show and rotate) and the key's route (family "callback-route", key -> team, to
// route a callback). One address at a time: the team's key changes only by the board's swapState
// (compare-and-set, atomic on every engine), and a key routes only while its team's state names it,
// so a route written before its swap, or not yet deleted after one, routes nothing.

/** The board's family of the workspaces' current keys: item = team id, state KEY_FIELD. */
export const CALLBACK_TEAMS = "callback";
/** The board's family of the keys' routes: item = key, state ROUTE_FIELD (the team id). */
export const CALLBACK_ROUTES = "callback-route";
const KEY_FIELD = "key";
const ROUTE_FIELD = "team";

const KEY_BYTES = 24;
const KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;
/** A swap that keeps losing means the workspace is being changed without pause; give up then. */
const MAX_ATTEMPTS = 5;

const TEAM_KEYS = defineFamily({
  name: CALLBACK_TEAMS,
  fields: { [KEY_FIELD]: z.string().regex(KEY_PATTERN) },
  kept: "until its workspace is disconnected or uninstalled",
});
const KEY_ROUTES = defineFamily({
  name: CALLBACK_ROUTES,
  fields: { [ROUTE_FIELD]: z.string().min(1) },
  kept: "while its team's key names it (a route left behind by a crash routes nothing)",
});

export class CallbackKeys {
  private readonly board: () => Promise<ClaimBoard>;

  /** `open`: the claim board, opened on first use (and again after a failed opening). */
  constructor(open: () => Promise<ClaimBoard>) {
    this.board = boardOnFirstUse(open);
  }

  /** The workspace of a callback key; undefined for a key that is not (or no longer) anyone's. */
  async teamOf(key: string): Promise<string | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
    const board = await this.board();
    const team = (await KEY_ROUTES.read(board, key, ROUTE_FIELD)).value;
    if (team === undefined) return undefined;
    // Both ways must agree: a route whose team has moved on (or not yet arrived) never works.
    const current = (await TEAM_KEYS.read(board, team, KEY_FIELD)).value;
    return current === key ? team : undefined;
  }

  /** The workspace's key, made on first use (two first uses at once make one key). */
  async keyOf(teamId: string): Promise<string> {
    return (await TEAM_KEYS.read(await this.board(), teamId, KEY_FIELD)).value ?? this.replace(teamId, false);
  }

  /**
   * A new key for the workspace; the old address stops working at once. Admins rotating at the same
   * moment get the same new key: whichever swap came second finds the state changed and shows the
   * key that won, which is the one that works.
   */
  rotate(teamId: string): Promise<string> {
    return this.replace(teamId, true);
  }

  /**
   * A new key in place of the one stored (`rotating`: even a valid one; else only a missing or
   * unreadable one). Another replica's new key that landed first is taken as it is.
   */
  private async replace(teamId: string, rotating: boolean): Promise<string> {
    const board = await this.board();
    let first = true;
    let made: string | undefined;
    type Replaced = { key: string; previous?: string | undefined } | undefined;
    const replaced = await TEAM_KEYS.update<typeof KEY_FIELD, Replaced>(
      board,
      teamId,
      KEY_FIELD,
      async (stored) => {
        if (made !== undefined) await board.deleteState(CALLBACK_ROUTES, made, ROUTE_FIELD);
        made = undefined;
        // A key of another replica's that landed since this began is the one that works.
        if (stored.value !== undefined && !(rotating && first)) return { result: { key: stored.value } };
        first = false;
        const key = randomBytes(KEY_BYTES).toString("base64url");
        // The route first: it routes nothing until the swap names its key, and a replica that stops
        // between the two leaves a dead route, never a key the workspace shows that does not route.
        if (!(await KEY_ROUTES.swap(board, key, ROUTE_FIELD, undefined, teamId)))
          return { result: undefined };
        made = key;
        return { next: key, result: { key, previous: stored.value } };
      },
      MAX_ATTEMPTS,
    );
    if (!replaced) throw new Error("a new callback key collided with another's route");
    if (replaced.previous !== undefined)
      await board.deleteState(CALLBACK_ROUTES, replaced.previous, ROUTE_FIELD);
    return replaced.key;
  }

  /** Forgets the workspace's address (disconnect, uninstall). */
  async remove(teamId: string): Promise<void> {
    const board = await this.board();
    const removed = await TEAM_KEYS.update(
      board,
      teamId,
      KEY_FIELD,
      (stored) =>
        stored.raw === undefined ? { result: undefined } : { next: undefined, result: stored.value },
      MAX_ATTEMPTS,
    );
    if (removed !== undefined) await board.deleteState(CALLBACK_ROUTES, removed, ROUTE_FIELD);
  }
}

/**
 * The callback keys of a store, on its claim board under `prefix` (a test run's own, or the
 * store's). `timeoutMs`: STORE_TIMEOUT_MS, the deadline of each call.
 */
export function callbackKeysFor(store: KeyvStore, timeoutMs: number, prefix = DEFAULT_PREFIX): CallbackKeys {
  return new CallbackKeys(() => openClaimBoard(store, prefix, timeoutMs));
}
