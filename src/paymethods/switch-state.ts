import { z } from "zod";
import { boardOnFirstUse, defineFamily } from "../store/claims/family.js";
import type { ClaimBoard } from "../store/claims/index.js";

// Each method's switches made in Kassa: one item of family `method-switch` on the claim board (key:
// `registerKey:CODE`), its state `switch` changed only through METHOD_SWITCHES.update. A confirmation
// becomes `pending` by compare-and-set before its one `method/edit` is sent (so of two replicas or
// clicks one sends), and `last` once the service's own read shows the result. The methods watch reads
// it to tell Kassa's changes from changes made elsewhere. The register's own item (key: the register's
// key, field `codes`) lists the methods that have a record, so a register disconnected forgets them all.

export const METHOD_SWITCH_FAMILY = "method-switch";
const SWITCH_FIELD = "switch";
const CODES_FIELD = "codes";
/** Methods with a record, listed per register at most (a register lists a few dozen). */
const CODES_KEPT = 200;
/** Confirmations remembered as handled (a repeat of one is answered from here, never sent again). */
const DONE_KEPT = 20;

const percentText = z.string().regex(/^\d{1,3}(\.\d{1,8})?$/);

/** What a confirmation asks for: on/off, a surcharge (percent, exact decimal string), or both. */
export const wantSchema = z
  .object({ on: z.boolean().optional(), surcharge: percentText.optional() })
  .refine((want) => want.on !== undefined || want.surcharge !== undefined);
export type SwitchWant = z.infer<typeof wantSchema>;

const switchStateSchema = z.object({
  v: z.literal(1),
  /**
   * A confirmation whose edit is being sent (`sending`), or was sent without a clear answer
   * (`unsure`: a time-out or a 5xx; the next read of the method decides).
   */
  pending: z
    .object({
      id: z.string().min(1).max(100),
      want: wantSchema,
      by: z.string(),
      at: z.number().int(),
      state: z.enum(["sending", "unsure"]),
    })
    .optional(),
  /** The last switch Kassa made, as the service showed it afterwards: who, when, and what it shows. */
  last: z
    .object({
      id: z.string().min(1).max(100),
      want: wantSchema,
      on: z.boolean(),
      surcharge: percentText,
      by: z.string(),
      at: z.number().int(),
    })
    .optional(),
  /** Confirmation ids handled (newest last), so a repeated submission is never sent twice. */
  done: z.array(z.string()).max(DONE_KEPT),
});
export type MethodSwitchState = z.infer<typeof switchStateSchema>;

export const NO_SWITCH: MethodSwitchState = { v: 1, done: [] };
export const SWITCH_DONE_KEPT = DONE_KEPT;

/** The codes of a register's methods that have a record (newest last). */
const codesSchema = z.array(z.string().min(1).max(40)).max(CODES_KEPT);

/** The family: one item per method switched in Kassa (its state `switch`), and per register (`codes`). */
export const METHOD_SWITCHES = defineFamily({
  name: METHOD_SWITCH_FAMILY,
  fields: { [SWITCH_FIELD]: switchStateSchema, [CODES_FIELD]: codesSchema },
  kept: "while its register is connected",
});

export const switchKey = (registerKey: string, code: string) => `${registerKey}:${code}`;

/** A method's switch record (none when nothing, or nothing readable, is stored). */
export async function readSwitch(
  board: ClaimBoard,
  registerKey: string,
  code: string,
): Promise<MethodSwitchState> {
  return (await METHOD_SWITCHES.read(board, switchKey(registerKey, code), SWITCH_FIELD)).value ?? NO_SWITCH;
}

/** The codes of the register's methods that have a record (listed before each is written). */
export async function switchedCodes(board: ClaimBoard, registerKey: string): Promise<readonly string[]> {
  return (await METHOD_SWITCHES.read(board, registerKey, CODES_FIELD)).value ?? [];
}

/** A read-change-compare-and-set of a method's switch record (its code listed for the register first). */
export async function changeSwitch<T>(
  board: ClaimBoard,
  registerKey: string,
  code: string,
  change: (current: MethodSwitchState) => { next: MethodSwitchState; result: T } | { result: T },
): Promise<T> {
  await listCode(board, registerKey, code);
  return METHOD_SWITCHES.update(
    board,
    switchKey(registerKey, code),
    SWITCH_FIELD,
    (stored) => change(stored.value ?? NO_SWITCH),
    10,
  );
}

/** Lists `code` among the register's methods with a record (before the record is written: never one unlisted). */
async function listCode(board: ClaimBoard, registerKey: string, code: string): Promise<void> {
  await METHOD_SWITCHES.update(board, registerKey, CODES_FIELD, (stored) => {
    const codes = stored.value ?? [];
    if (codes.includes(code)) return { result: undefined };
    return { next: [...codes, code].slice(-CODES_KEPT), result: undefined };
  });
}

/** A register's switch records read one at a time, and forgotten with the register. */
export class MethodSwitchRecords {
  private readonly board: () => Promise<ClaimBoard>;

  constructor(open: () => Promise<ClaimBoard>) {
    this.board = boardOnFirstUse(open);
  }

  async read(registerKey: string, code: string): Promise<MethodSwitchState> {
    return readSwitch(await this.board(), registerKey, code);
  }

  /** A register disconnected or uninstalled: every method's record is forgotten, then their list. */
  async forget(registerKey: string): Promise<void> {
    const board = await this.board();
    const codes = await switchedCodes(board, registerKey);
    await Promise.all(codes.map((one) => board.drop(METHOD_SWITCH_FAMILY, switchKey(registerKey, one))));
    await board.drop(METHOD_SWITCH_FAMILY, registerKey);
  }
}
