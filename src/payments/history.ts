import { z } from "zod";
import { optionalTextSchema, serviceTimeSchema } from "./schemas.js";
import { parseServiceTime, type ServiceTime } from "./time.js";

/** One invoice as the cash register's history lists it: enough to see that it changed. */
export type HistoryEntry = { id: string; state: string; method: string | null; createdAt: ServiceTime };

/**
 * One page of the history, newest first. `hasNextPage`: v3 says; v2 does not (null), a full page
 * then means "maybe". Entries that cannot be read are counted, not guessed.
 */
export type HistoryPage = { entries: HistoryEntry[]; unreadable: number; hasNextPage: boolean | null };

const entrySchema = z.object({
  id: z.string().min(1).max(100),
  state: z.string().min(1).max(100),
  method: optionalTextSchema.optional(),
  created_at: serviceTimeSchema,
});

/** v2 history/payments/: `payments: [{id, state, method, currency, amount, created_at, expired_at}]`. */
export const historyV2Schema = z.object({ payments: z.array(z.unknown()) });
/** v3 report/invoice/history/: `{items: [invoice info], has_next_page}`. */
export const historyV3Schema = z.object({
  items: z.array(z.unknown()),
  has_next_page: z.boolean().nullish(),
});

export function historyFrom(items: unknown[], hasNextPage: boolean | null, zone: string): HistoryPage {
  const entries: HistoryEntry[] = [];
  let unreadable = 0;
  for (const item of items) {
    const parsed = entrySchema.safeParse(item);
    const createdAt = parsed.success ? parseServiceTime(parsed.data.created_at, zone) : undefined;
    if (!parsed.success || !createdAt) {
      unreadable += 1;
      continue;
    }
    entries.push({
      id: parsed.data.id,
      state: parsed.data.state,
      method: parsed.data.method ?? null,
      createdAt,
    });
  }
  return { entries, unreadable, hasNextPage };
}
