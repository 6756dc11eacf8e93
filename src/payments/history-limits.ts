import { z } from "zod";
import { decimalSchema } from "./schemas.js";

/**
 * The longest value of each history field, one definition for both ends: where the service's answer
 * is read (history.ts) and where the history is kept (history/model.ts). Whatever is read within
 * these is kept and read back; when the two disagreed, one long method name was kept, then refused
 * on reading, and every report over its day failed.
 */
export const HISTORY_LIMITS = {
  id: 100,
  state: 100,
  method: 100,
  type: 100,
  url: 3000,
  description: 10_000,
  extra: 10_000,
  /** An exact decimal's text (toDecimalString's bounds already keep it under 45 characters). */
  decimal: 100,
  currency: 20,
  /** The service's `YYYY-MM-DD HH:MM:SS`. */
  time: 19,
} as const;

/**
 * Text cut to `max` characters, the last one "…": an odd name shows as odd and cut, the invoice and
 * its amount stay in every report. A pair of UTF-16 halves is never split.
 */
export function cutText(value: string, max: number): string {
  if (value.length <= max) return value;
  let end = max - 1;
  const last = value.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${value.slice(0, end)}…`;
}

/** Optional text of a history entry: unset as null, over its limit cut, anything else null. */
export const historyTextSchema = (max: number) =>
  z
    .string()
    .nullish()
    .catch(null)
    .transform((value) => (value ? cutText(value, max) : null));

/** An amount of a history entry; one that cannot be read is null (the entry stays). */
export const historyDecimalSchema = decimalSchema
  .pipe(z.string().max(HISTORY_LIMITS.decimal))
  .nullish()
  .catch(null);
