import { z } from "zod";
import type { MethodCatalog } from "../payments/model.js";

/**
 * What WorkspacePayments keeps in the cache store, checked with zod when read back (an entry written
 * by an older Kassa or damaged reads as a miss, never as a wrong answer).
 */

const moneySchema = z.object({ value: z.string(), currency: z.string().nullable() });
const unreadableSchema = z.array(z.object({ code: z.string(), reason: z.string() }));
/** Whose answer a cache entry holds, and when it was read: another login or version is a miss. */
const cacheEntryFields = { login: z.string(), apiVersion: z.enum(["v2", "v3"]), fetchedAt: z.number() };

/** A cached method list, checked when read back from the store. */
export const cachedMethodsSchema = z.object({
  ...cacheEntryFields,
  methods: z.array(
    z
      .object({
        code: z.string(),
        name: z.string(),
        enabled: z.boolean(),
        // Lists cached before it was kept: the merchant's switch read as what payers get.
        switchedOn: z.boolean().optional(),
        currency: z.string(),
        commissionPercent: z.string(),
        commission: moneySchema,
        extraCommissionPercent: z.string(),
        extraCommission: moneySchema.nullable(),
        minimalStatusLevel: z.number().nullable(),
        limits: z.object({ min: moneySchema.nullable(), max: moneySchema.nullable() }).nullable(),
      })
      .transform((method) => ({ ...method, switchedOn: method.switchedOn ?? method.enabled })),
  ),
  // Entries stored before these were kept read as none left out.
  payoutOnly: z.array(z.string()).default([]),
  unreadable: unreadableSchema.default([]),
});

export type CachedMethods = z.infer<typeof cachedMethodsSchema>;

/** Cached balances, with the rouble prices read for them (null until a rates call succeeded). */
export const cachedBalancesSchema = z.object({
  ...cacheEntryFields,
  balances: z.array(
    z.object({
      code: z.string(),
      name: z.string().nullable(),
      amount: z.object({ value: z.string(), currency: z.string() }),
    }),
  ),
  unreadable: unreadableSchema,
  rates: z.object({ prices: z.record(z.string(), z.string()), fetchedAt: z.number() }).nullable(),
});
export type CachedBalances = z.infer<typeof cachedBalancesSchema>;

/** A method list as its readers use it: the catalog, when it was read and whether from the cache. */
export type MethodList = MethodCatalog & { fetchedAt: Date; fromCache: boolean };

export function listFrom(entry: CachedMethods, fromCache: boolean): MethodList {
  const { methods, payoutOnly, unreadable } = entry;
  return { methods, payoutOnly, unreadable, fetchedAt: new Date(entry.fetchedAt), fromCache };
}
