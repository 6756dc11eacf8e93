import { randomBytes } from "node:crypto";
import { z } from "zod";
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

const keySchema = z.string().regex(KEY_PATTERN);
const teamSchema = z.string().min(1);

function validKey(state: unknown): string | undefined {
  const parsed = keySchema.safeParse(state);
  return parsed.success ? parsed.data : undefined;
}

export class CallbackKeys {
  private opening: Promise<ClaimBoard> | undefined;

  /** `open`: the claim board, opened on first use (and again after a failed opening). */
  constructor(private readonly open: () => Promise<ClaimBoard>) {}

  private board(): Promise<ClaimBoard> {
    this.opening ??= this.open().catch((error: unknown) => {
      this.opening = undefined;
      throw error;
    });
    return this.opening;
  }

  /** The workspace of a callback key; undefined for a key that is not (or no longer) anyone's. */
  async teamOf(key: string): Promise<string | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
    const board = await this.board();
    const team = teamSchema.safeParse(await board.readState(CALLBACK_ROUTES, key, ROUTE_FIELD));
    if (!team.success) return undefined;
    // Both ways must agree: a route whose team has moved on (or not yet arrived) never works.
    const current = validKey(await board.readState(CALLBACK_TEAMS, team.data, KEY_FIELD));
    return current === key ? team.data : undefined;
  }

  /** The workspace's key, made on first use (two first uses at once make one key). */
  async keyOf(teamId: string): Promise<string> {
    const current = await (await this.board()).readState(CALLBACK_TEAMS, teamId, KEY_FIELD);
    return validKey(current) ?? this.replace(teamId, current);
  }

  /**
   * A new key for the workspace; the old address stops working at once. Admins rotating at the same
   * moment get the same new key: whichever swap came second finds the state changed and shows the
   * key that won, which is the one that works.
   */
  async rotate(teamId: string): Promise<string> {
    return this.replace(teamId, await (await this.board()).readState(CALLBACK_TEAMS, teamId, KEY_FIELD));
  }

  private async replace(teamId: string, seen: unknown): Promise<string> {
    const board = await this.board();
    let expected = seen;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const key = randomBytes(KEY_BYTES).toString("base64url");
      // The route first: it routes nothing until the swap names its key, and a replica that stops
      // between the two leaves a dead route, never a key the workspace shows that does not route.
      if (!(await board.swapState(CALLBACK_ROUTES, key, ROUTE_FIELD, undefined, teamId))) continue;
      if (await board.swapState(CALLBACK_TEAMS, teamId, KEY_FIELD, expected, key)) {
        const previous = validKey(expected);
        if (previous !== undefined) await board.deleteState(CALLBACK_ROUTES, previous, ROUTE_FIELD);
        return key;
      }
      await board.deleteState(CALLBACK_ROUTES, key, ROUTE_FIELD);
      expected = await board.readState(CALLBACK_TEAMS, teamId, KEY_FIELD);
      const theirs = validKey(expected);
      if (theirs !== undefined) return theirs;
    }
    throw new Error("the workspace's callback address kept changing while it was being replaced");
  }

  /** Forgets the workspace's address (disconnect, uninstall). */
  async remove(teamId: string): Promise<void> {
    const board = await this.board();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const current = await board.readState(CALLBACK_TEAMS, teamId, KEY_FIELD);
      if (current === undefined) return;
      if (await board.swapState(CALLBACK_TEAMS, teamId, KEY_FIELD, current, undefined)) {
        const key = validKey(current);
        if (key !== undefined) await board.deleteState(CALLBACK_ROUTES, key, ROUTE_FIELD);
        return;
      }
    }
  }
}

/**
 * The callback keys of a store, on its claim board under `prefix` (a test run's own, or the
 * store's). `timeoutMs`: STORE_TIMEOUT_MS, the deadline of each call.
 */
export function callbackKeysFor(store: KeyvStore, timeoutMs: number, prefix = DEFAULT_PREFIX): CallbackKeys {
  return new CallbackKeys(() => openClaimBoard(store, prefix, timeoutMs));
}
