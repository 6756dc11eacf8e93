import type { ClaimBoard } from "./board.js";
import { boardOnFirstUse } from "./family.js";

/** A change that keeps losing its swap means others change the same state without pause: give up then. */
const MAX_ATTEMPTS = 8;

export class DocumentBusyError extends Error {
  override readonly name = "DocumentBusyError";
}

/**
 * One state of a family on the claim board, read and changed as a whole document by
 * compare-and-set: `update` reads it, applies the change and swaps it in only while it is still what
 * was read, so of replicas changing it at once none loses the other's change (the loser reads again
 * and applies its change to the winner's). The board is opened at first use, once (a failed open is
 * tried again at the next call).
 */
export class BoardDocument<T> {
  readonly board: () => Promise<ClaimBoard>;

  constructor(
    open: () => Promise<ClaimBoard>,
    private readonly family: string,
    private readonly field: string,
    /** The stored value, checked (zod's safeParse or the like); undefined when it is not one. */
    private readonly parse: (raw: unknown) => T | undefined,
  ) {
    this.board = boardOnFirstUse(open);
  }

  /** The document as stored: `raw` undefined when there is none, `value` undefined when it is unreadable. */
  async read(key: string): Promise<{ raw: unknown; value: T | undefined }> {
    const raw = await (await this.board()).readState(this.family, key, this.field);
    return { raw, value: raw === undefined ? undefined : this.parse(raw) };
  }

  /**
   * Applies `change` to the document as stored now (`current` undefined: none yet, or unreadable,
   * as `stored` tells) and swaps it in; tried again on a lost swap. The document written.
   */
  async update(key: string, change: (current: T | undefined, stored: boolean) => T | Promise<T>): Promise<T> {
    const board = await this.board();
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const { raw, value } = await this.read(key);
      const next = await change(value, raw !== undefined);
      if (await board.swapState(this.family, key, this.field, raw, next)) return next;
    }
    throw new DocumentBusyError(`${this.family} ${key} kept changing while this change was being made`);
  }

  async remove(key: string): Promise<void> {
    await (await this.board()).deleteState(this.family, key, this.field);
  }
}
