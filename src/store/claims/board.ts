/**
 * The one claim primitive: work that must happen once across replicas, kept by the store engine's
 * own atomic steps (one SQL statement or transaction, one Lua script), never a Keyv read and write.
 *
 * A family (the feed's turns, leases, once-only claims, payouts...) keeps its items by key. An item is
 * due at a time; a claim takes it with a fresh token until its lease ends, renews it, and releases it
 * with its next due time (or forgets it). A nudge makes it due at once, or right after the claim that
 * holds it now. Each item has named states, written only while the writer's token still holds the
 * item: whatever a replica writes after losing its lease is refused.
 * Times are epoch ms from the caller's clock.
 */
export type ClaimedItem = { key: string; token: string };

/** What a claim of one named item found: taken (or already this token's), or held by someone else. */
export type KeyClaim = { held: true } | { held: false; info: string | undefined };

/**
 * An item of a due family enlisted with one state in the same atomic step as a write: what the write
 * owes, such as the audit entry of the act the write is (src/audit/owed.ts). One already enlisted
 * keeps its schedule; its state is written all the same.
 */
export type Enlisting = { family: string; key: string; dueAt: number; field: string; state: unknown };

/** After a claim: due again at a time, or forgotten with its states. */
export type Release = { dueAt: number } | "forget";

export interface ClaimBoard {
  /** Makes `key` due at `dueAt` unless the family already has it (it keeps its schedule). */
  enlist(family: string, key: string, dueAt: number): Promise<void>;
  /** Up to `limit` due items no claim holds, oldest due first, each claimed until now + leaseMs. */
  claimDue(family: string, now: number, leaseMs: number, limit: number): Promise<ClaimedItem[]>;
  /**
   * Claims one named item with `token` (the caller's, fresh or written down before): taken when the
   * family lacks it, its lease has run out, or `token` holds it already (then renewed). `info` says
   * who holds it, for the next asker ("under way, asked by ..."). Such an item lives only while held:
   * release it with "forget", and sweep the family now and then.
   */
  claimKey(
    family: string,
    key: string,
    token: string,
    now: number,
    leaseMs: number,
    info?: string,
  ): Promise<KeyClaim>;
  /** Extends the claim to now + leaseMs; false when `token` no longer holds the item or its lease ran out (stop). */
  renew(family: string, key: string, token: string, now: number, leaseMs: number): Promise<boolean>;
  /** Ends the claim: due at `dueAt` (sooner when nudged meanwhile), or forgotten. False: not this token's. */
  release(family: string, key: string, token: string, next: Release): Promise<boolean>;
  /** Due at once; an item claimed now is due again right after its release. */
  nudge(family: string, key: string, now: number): Promise<void>;
  /** A state as last written (undefined: none). Not parsed here: the caller's schema does. */
  readState(family: string, key: string, field: string): Promise<unknown>;
  /** Writes a state while `token` holds the item; false (nothing written) otherwise. */
  writeState(family: string, key: string, field: string, token: string, state: unknown): Promise<boolean>;
  /** Removes one state, whoever holds the item. */
  deleteState(family: string, key: string, field: string): Promise<void>;
  /**
   * Compare-and-set of one state, whoever holds the item (no claim needed): only while the state's
   * stored text is `expected`'s JSON (undefined: there is none), it becomes `replacement`'s
   * (undefined: deleted). True when it did; false (nothing changed) when the state was otherwise.
   * For small state machines shared by replicas, such as the callback keys. With `along`, that item
   * is enlisted with its state in the same atomic step, only when the swap lands.
   */
  swapState(
    family: string,
    key: string,
    field: string,
    expected: unknown,
    replacement: unknown,
    along?: Enlisting,
  ): Promise<boolean>;
  /** Enlists an item with one state in one atomic step (see Enlisting). */
  enlistWith(item: Enlisting): Promise<void>;
  /**
   * Forgets the family's items whose claim has lapsed: for families whose items live only while
   * held (leases, once-only claims). Redis lets them expire instead. How many went.
   */
  sweep(family: string, now: number): Promise<number>;
  /** Forgets the item: its schedule, claim and every state. */
  drop(family: string, key: string): Promise<void>;
}

/** The stored text of a state (what swapState compares); undefined stands for none. */
export function stateText(state: unknown): string | undefined {
  return state === undefined ? undefined : JSON.stringify(state);
}

/** A stored state that is not JSON reads as undefined: the caller's schema then refuses it. */
export function parseState(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
