import type { z } from "zod";

/**
 * A button whose value is not one our builders write now: a message from an older Kassa, or a value
 * someone changed. The presser is told the button is out of date (nothing done); not a fault.
 */
export class StaleButtonError extends Error {
  override readonly name = "StaleButtonError";
  constructor(readonly actionId: string) {
    super(`unreadable ${actionId} button value`);
  }
}

/**
 * A button's value as our own builder wrote it. Anything else (a forged or stale payload) is a
 * StaleButtonError, never a guess: a page of -1 or 1e9 is not read as some other page.
 */
export function readButtonValue<S extends z.ZodType>(
  schema: S,
  action: { action_id: string; value?: string | undefined },
): z.output<S> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(action.value ?? "");
  } catch {
    throw new StaleButtonError(action.action_id);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new StaleButtonError(action.action_id);
  return result.data;
}
