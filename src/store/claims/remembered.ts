import type { ClaimBoard } from "./board.js";

// A state cell that remembers what this process last read or wrote of each state, for the live
// cards' queue (src/watch), whose watches are changed often and mostly by one replica at a time.

/** What a change of one state decides: its result, and the state to write (undefined: delete it) if any. */
export type CellChange<T> = { result: T } | { result: T; replace: unknown };

/** A state that keeps changing under a compare-and-set this often in a row is a fault, not a race. */
const MAX_ATTEMPTS = 50;
/**
 * States remembered (what this process last read or wrote), so a write rarely needs a read first:
 * enough for the watches of a few claim batches under way (a watch's data is a few kilobytes).
 */
const MAX_REMEMBERED = 4096;

/**
 * Read-modify-write of one state through swapState: `change` sees the state as stored (undefined:
 * none) and decides; its write lands only while the state is still what it saw, else it is asked
 * again with what is there now. A state this process wrote last is not read again first: when
 * another replica changed it since, the swap fails and the state is read.
 */
export class StateCell {
  private readonly known = new Map<string, unknown>();

  constructor(private readonly board: ClaimBoard) {}

  read(family: string, key: string, field: string): Promise<unknown> {
    return this.board.readState(family, key, field).then((state) => {
      this.remember(family, key, field, state);
      return state;
    });
  }

  async update<T>(
    family: string,
    key: string,
    field: string,
    change: (current: unknown) => CellChange<T>,
  ): Promise<T> {
    const id = `${family}\u0000${key}\u0000${field}`;
    let guessed = this.known.has(id);
    let current = guessed ? this.known.get(id) : await this.read(family, key, field);
    let unreadable = 0;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const step = change(current);
      if (!("replace" in step)) {
        // Decided on a remembered state: only what is stored now may decide "nothing to write".
        if (!guessed) return step.result;
      } else if (await this.board.swapState(family, key, field, current, step.replace)) {
        this.remember(family, key, field, step.replace);
        return step.result;
      }
      const before = current;
      guessed = false;
      current = await this.read(family, key, field);
      // Stored text that is not JSON reads as none, and no swap from none can replace it: deleted.
      unreadable = !guessed && before === undefined && current === undefined ? unreadable + 1 : 0;
      if (unreadable >= 2) await this.board.deleteState(family, key, field);
    }
    throw new Error(`the ${family} state kept changing under this replica's compare-and-set`);
  }

  private remember(family: string, key: string, field: string, state: unknown): void {
    const id = `${family}\u0000${key}\u0000${field}`;
    // The one remembered longest goes first (a Map keeps the order things were set in).
    this.known.delete(id);
    if (this.known.size >= MAX_REMEMBERED) this.known.delete(this.known.keys().next().value ?? id);
    // As stored: JSON text parsed back, so it compares as the engine's text does.
    this.known.set(id, state === undefined ? undefined : JSON.parse(JSON.stringify(state)));
  }
}
