import type Keyv from "keyv";
import type { ClaimBoard } from "./board.js";
import { BoardDocument } from "./document.js";

/**
 * A register's list (its feed subscriptions, its digests) as a document on the claim board, changed
 * by compare-and-set (two admins at once both keep their change), and listed by a Keyv entry while
 * it holds anything, so the background work can go through the registers that have one. That Keyv
 * key is where the releases before kept the list whole: such a list is read until its first change
 * moves it onto the board.
 */
export class ListedDocument<T> {
  private readonly document: BoardDocument<T>;

  constructor(
    openBoard: () => Promise<ClaimBoard>,
    family: string,
    field: string,
    /** The Keyv namespace of the entries (and of the lists kept before). */
    private readonly index: Keyv,
    private readonly shape: {
      /** The stored value, checked; undefined when it is not one. */
      parse: (raw: unknown) => T | undefined;
      empty: () => T;
      size: (list: T) => number;
      /** The error for a list that cannot be read (never taken for an empty one). */
      unreadable: (key: string) => Error;
    },
  ) {
    this.document = new BoardDocument(openBoard, family, field, shape.parse);
  }

  async read(key: string): Promise<T> {
    const { raw, value } = await this.document.read(key);
    if (raw !== undefined && !value) throw this.shape.unreadable(key);
    return value ?? (await this.legacyOf(key));
  }

  /**
   * The list changed by compare-and-set; then its entry: written while it holds anything, removed when
   * it is empty, and written back if a change landed meanwhile. The list written.
   */
  async change(key: string, next: (list: T) => T | Promise<T>): Promise<T> {
    const written = await this.document.update(key, async (current, stored) => {
      if (stored && !current) throw this.shape.unreadable(key);
      return next(current ?? (await this.legacyOf(key)));
    });
    if (this.shape.size(written) > 0) await this.index.set(key, true);
    else {
      await this.index.delete(key);
      if (this.shape.size(await this.read(key)) > 0) await this.index.set(key, true);
    }
    return written;
  }

  async remove(key: string): Promise<void> {
    await this.document.remove(key);
    await this.index.delete(key);
  }

  /** The keys with a list (each once, though Redis' SCAN may return a key twice while its table grows). */
  async *keys(): AsyncGenerator<string> {
    const iterator = this.index.iterator;
    if (!iterator) throw new Error("this store cannot list its keys");
    const seen = new Set<string>();
    for await (const [key] of iterator(this.index.namespace)) {
      const found = String(key);
      if (!seen.has(found)) {
        seen.add(found);
        yield found;
      }
    }
  }

  /** The list as kept before it moved onto the board (the entry `true`: none there). */
  private async legacyOf(key: string): Promise<T> {
    const raw: unknown = await this.index.get(key);
    if (raw === undefined || raw === true) return this.shape.empty();
    const parsed = this.shape.parse(raw);
    if (!parsed) throw this.shape.unreadable(key);
    return parsed;
  }
}
