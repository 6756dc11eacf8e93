import type { z } from "zod";
import type { ClaimBoard, Enlisting } from "./board.js";

// A family on the claim board, declared once: its name, the zod schema of each of its states (its
// fields), and how long an item is kept. Every read is checked against the field's schema, every
// write too, and `update` is the one read-change-compare-and-set loop: a change that lost its swap
// to another replica's is asked again with what is stored now, so none is lost and none overwrites.

/** The zod schema of each state an item of the family keeps, by field. */
export type FamilyFields = Record<string, z.ZodType>;

/** A state as stored: `raw` what a compare-and-set compares with (undefined: none), `value` checked. */
export type Stored<T> = {
  raw: unknown;
  /** The state as its schema reads it; undefined when there is none, or it is unreadable (raw set). */
  value: T | undefined;
};

/**
 * What a change decides: its result, and the state to write (`next`; undefined deletes it), if any,
 * with an item written in the same atomic step when it lands (`along`: an act's audit entry owed).
 */
export type Change<T, R> = { result: R; next: T | undefined; along?: Enlisting | undefined } | { result: R };

/** A state that kept changing under `update` (others change it without pause): a fault, not a race. */
export class FamilyBusyError extends Error {
  override readonly name = "FamilyBusyError";
}

/** How many lost swaps `update` takes before it gives up. */
const ATTEMPTS = 8;

export class BoardFamily<Fields extends FamilyFields> {
  private known: Fields | undefined;

  constructor(
    readonly name: string,
    /** The states' schemas, or a function giving them (read at first use: modules that import each other). */
    private readonly declared: Fields | (() => Fields),
    /** How long an item is kept, in words (the map names it): "until its register is disconnected". */
    readonly kept: string,
  ) {}

  /** Each state's schema, by field. */
  get fields(): Fields {
    this.known ??= typeof this.declared === "function" ? this.declared() : this.declared;
    return this.known;
  }

  /** The state `field` of item `key`, checked against its schema. */
  async read<K extends keyof Fields & string>(
    board: ClaimBoard,
    key: string,
    field: K,
  ): Promise<Stored<z.infer<Fields[K]>>> {
    const raw = await board.readState(this.name, key, field);
    if (raw === undefined) return { raw, value: undefined };
    const parsed = this.fields[field]?.safeParse(raw);
    return { raw, value: parsed?.success ? (parsed.data as z.infer<Fields[K]>) : undefined };
  }

  /**
   * Compare-and-set: `next` (checked first; undefined deletes) lands only while the state is still
   * `raw`, and `along` with it.
   */
  async swap<K extends keyof Fields & string>(
    board: ClaimBoard,
    key: string,
    field: K,
    raw: unknown,
    next: z.infer<Fields[K]> | undefined,
    along?: Enlisting,
  ): Promise<boolean> {
    const checked = next === undefined ? undefined : this.check(field, next);
    return board.swapState(this.name, key, field, raw, checked, along);
  }

  /** A write fenced by the claim `token` (the holder's; refused once its lease is lost). */
  async write<K extends keyof Fields & string>(
    board: ClaimBoard,
    key: string,
    field: K,
    token: string,
    value: z.infer<Fields[K]>,
  ): Promise<boolean> {
    return board.writeState(this.name, key, field, token, this.check(field, value));
  }

  /**
   * Reads the state, asks `change` what to do with it, and compare-and-sets what it decides; asked
   * again with what is stored now when another change landed first. The change's result.
   */
  async update<K extends keyof Fields & string, R>(
    board: ClaimBoard,
    key: string,
    field: K,
    change: (
      stored: Stored<z.infer<Fields[K]>>,
    ) => Change<z.infer<Fields[K]>, R> | Promise<Change<z.infer<Fields[K]>, R>>,
    attempts = ATTEMPTS,
  ): Promise<R> {
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      const stored = await this.read(board, key, field);
      const step = await change(stored);
      if (!("next" in step)) return step.result;
      if (await this.swap(board, key, field, stored.raw, step.next, step.along)) return step.result;
    }
    throw new FamilyBusyError(`${this.name} ${key} kept changing while it was being changed`);
  }

  private check<K extends keyof Fields & string>(field: K, value: unknown): z.infer<Fields[K]> {
    const schema = this.fields[field];
    if (!schema) throw new Error(`family ${this.name} has no state ${field}`);
    return schema.parse(value) as z.infer<Fields[K]>;
  }
}

/** Declares a family: its name, its states' schemas, and how long an item is kept. */
export function defineFamily<Fields extends FamilyFields>(spec: {
  name: string;
  fields: Fields | (() => Fields);
  kept: string;
}): BoardFamily<Fields> {
  return new BoardFamily(spec.name, spec.fields, spec.kept);
}

/**
 * The claim board opened at first use, once: a failed opening is tried again at the next use. For a
 * module that is built before the store answers (the stores' constructors).
 */
export function boardOnFirstUse(open: () => Promise<ClaimBoard>): () => Promise<ClaimBoard> {
  let opening: Promise<ClaimBoard> | undefined;
  return () => {
    opening ??= open().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
}
