import { z } from "zod";
import { currencySchema, decimalSchema, optionalTextSchema, serviceTimeSchema } from "./schemas.js";

// The payout answers of both versions (notes/payouts.md). v2 writes amounts as JSON numbers and unset
// text as ""; v3 writes decimal strings and null. Unknown fields are allowed everywhere.

const subtractFromSchema = z.enum(["balance", "amount"]);

/** A service time, or unset ("" in v2, null in v3). */
const optionalTimeSchema = z
  .union([serviceTimeSchema, z.literal("")])
  .nullish()
  .transform((value) => (value ? value : null));

const quoteCommon = {
  id: z.string().min(1),
  method: z.string().min(1),
  amount: decimalSchema,
  rub_amount: decimalSchema.nullish(),
  receive_amount: decimalSchema,
  deduction_amount: decimalSchema,
  subtract_from: subtractFromSchema,
};

/**
 * What info adds to the quote, in both versions. Its fee, receive and deduction figures are read when
 * given, never required: a payout is not refused for a figure the answer leaves out (Kassa says less).
 */
const infoFields = {
  receive_amount: decimalSchema.nullish(),
  deduction_amount: decimalSchema.nullish(),
  wallet: z.string(),
  state: z.string().min(1),
  message: optionalTextSchema,
  callback_url: optionalTextSchema,
  extra: optionalTextSchema,
  created_at: optionalTimeSchema,
};

/** v2 payoff/create: `id, method, commission, amount, rub_amount, receive_amount, deduction_amount, subtract_from, currency`. */
export const payoffQuoteV2Schema = z.object({
  ...quoteCommon,
  commission: decimalSchema,
  currency: currencySchema,
  wallet: z.string().nullish(),
});

/** v2 payoff/info (and submit, cancel): the quote plus wallet, state, message, callback_url, extra, created_at. */
export const payoffInfoV2Schema = payoffQuoteV2Schema.extend({
  ...infoFields,
  commission: decimalSchema.nullish(),
});

/** v3 payoff/create: `id, subtract_from, method, amount_currency, amount, rub_amount, receive_amount, deduction_amount, commission_amount, wallet`. */
export const payoffQuoteV3Schema = z.object({
  ...quoteCommon,
  commission_amount: decimalSchema,
  amount_currency: currencySchema,
  wallet: z.string().nullish(),
});

/** v3 payoff/info: the quote plus the info fields and `final_at` (null until it ends). */
export const payoffInfoV3Schema = payoffQuoteV3Schema.extend({
  ...infoFields,
  commission_amount: decimalSchema.nullish(),
  final_at: optionalTimeSchema,
});

export type PayoffQuoteV2 = z.infer<typeof payoffQuoteV2Schema>;
export type PayoffInfoV2 = z.infer<typeof payoffInfoV2Schema>;
export type PayoffQuoteV3 = z.infer<typeof payoffQuoteV3Schema>;
export type PayoffInfoV3 = z.infer<typeof payoffInfoV3Schema>;

const commissions = z.object({ percent: decimalSchema, amount: decimalSchema });
const limitSchema = decimalSchema.nullish().catch(null);

/** One v3 method list entry, as payouts read it: `out` (fees, limits) and `settings.out` (the account's extra fee). */
export const payoffMethodEntrySchema = z.object({
  name: z.string(),
  currency: currencySchema,
  settings: z
    .object({
      out: z.object({ enabled: z.boolean().nullish(), extra_commissions: commissions.nullish() }).nullish(),
    })
    .nullish(),
  out: z
    .object({
      enabled: z.boolean(),
      commissions,
      limits: z.object({ min: limitSchema, max: limitSchema }).nullish().catch(null),
    })
    .nullish(),
});
export type PayoffMethodEntry = z.infer<typeof payoffMethodEntrySchema>;

/** v3 method/list, read one entry at a time (payoff-normalize.ts): an odd entry never hides the rest. */
export const payoffMethodListV3Schema = z.object({ items: z.record(z.string().min(1), z.unknown()) });

/** One history entry; anything but id and state may be missing (the v2 shape is known only as "like payments"). */
export const payoffHistoryEntrySchema = z.object({
  id: z.string().min(1).max(100),
  state: z.string().min(1).max(100),
  method: optionalTextSchema.catch(null),
  wallet: optionalTextSchema.catch(null),
  amount: decimalSchema.nullish().catch(null),
  currency: currencySchema.nullish().catch(null),
  amount_currency: currencySchema.nullish().catch(null),
  created_at: optionalTimeSchema.catch(null),
  extra: optionalTextSchema.catch(null),
});
export type PayoffHistoryItem = z.infer<typeof payoffHistoryEntrySchema>;

/** v2 history/payoffs/: `payoffs`, newest first. */
export const payoffHistoryV2Schema = z.object({ payoffs: z.array(z.unknown()) });
/** v3 report/payoff/history/: `items`, newest first, and (as its invoice report) `has_next_page`. */
export const payoffHistoryV3Schema = z.object({
  items: z.array(z.unknown()),
  has_next_page: z.boolean().nullish(),
});
