import type { z } from "zod";

/**
 * A button's value as our own builder wrote it. Anything else (a forged or stale payload) is an
 * error with a reference for the log, never a guess.
 */
export function readButtonValue<S extends z.ZodType>(
  schema: S,
  action: { action_id: string; value?: string | undefined },
): z.output<S> {
  try {
    return schema.parse(JSON.parse(action.value ?? ""));
  } catch {
    throw new Error(`unreadable ${action.action_id} button value`);
  }
}
