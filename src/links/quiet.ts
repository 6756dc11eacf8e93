import { z } from "zod";
import type { ClaimBoard } from "../store/claims/board.js";
import { defineFamily } from "../store/claims/family.js";

// Stop reminding, pressed on a reminder of a repeating schedule's link (issue 51): the schedule's
// later links remind no more. One state per schedule, written by compare-and-set with no claim and
// read by the links' pass before it reminds; a schedule's deletion forgets it (forgetQuiet).

export const LINK_QUIET_FAMILY = "link-quiet";

const QUIET = defineFamily({
  name: LINK_QUIET_FAMILY,
  fields: {
    quiet: z.object({ v: z.literal(1), by: z.string().min(1).max(40), at: z.number().int().nonnegative() }),
  },
  kept: "as long as its schedule: forgotten when the schedule is deleted",
});

const quietKey = (registerKey: string, scheduleId: string) => `${registerKey}:${scheduleId}`;

/** The schedule's links remind no more (the first to stop it is kept). */
export async function quietSchedule(
  board: ClaimBoard,
  registerKey: string,
  scheduleId: string,
  stopped: { by: string; at: number },
): Promise<void> {
  await QUIET.update(board, quietKey(registerKey, scheduleId), "quiet", (stored) =>
    stored.value ? { result: undefined } : { next: { v: 1, ...stopped }, result: undefined },
  );
}

/** Whether Stop reminding was pressed on one of the schedule's links. */
export async function scheduleQuiet(
  board: ClaimBoard,
  registerKey: string,
  scheduleId: string,
): Promise<boolean> {
  return (await QUIET.read(board, quietKey(registerKey, scheduleId), "quiet")).value !== undefined;
}

/** The schedule was deleted: its quiet state goes with it. */
export function forgetQuiet(board: ClaimBoard, registerKey: string, scheduleId: string): Promise<void> {
  return board.deleteState(LINK_QUIET_FAMILY, quietKey(registerKey, scheduleId), "quiet");
}
