import { z } from "zod";
import { toDecimalString } from "./decimal.js";
import { JsonNumber } from "./json.js";
import { parseServiceTime, SERVICE_TIME_PATTERN } from "./time.js";

/** Every answer: `error` and the service's messages. Unknown fields are allowed everywhere. */
export const envelopeSchema = z.object({
  error: z.boolean(),
  errors: z.array(z.string()).nullish(),
});

/** A JSON number, kept as written (the client parses answers with parseJsonExact). */
const jsonNumberSchema = z.instanceof(JsonNumber, { error: "expected a number" });

/** An amount: a JSON number (v2) or a decimal string (v3); anything else is a wrong type. */
export const decimalSchema = z.union([jsonNumberSchema, z.number(), z.string()]).transform((value, ctx) => {
  const decimal = toDecimalString(value);
  if (decimal === undefined) {
    ctx.addIssue({ code: "custom", message: "expected a decimal amount" });
    return z.NEVER;
  }
  return decimal;
});

/** "" (v2) and null (v3) both mean unset. */
export const optionalTextSchema = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null));

export const currencySchema = z.string().regex(/^[A-Za-z0-9]{2,12}$/, "expected a currency code");

/** `YYYY-MM-DD HH:MM:SS` naming a real date; the zone is applied when the invoice is normalised. */
export const serviceTimeSchema = z
  .string()
  .regex(SERVICE_TIME_PATTERN, "expected YYYY-MM-DD HH:MM:SS")
  .refine((text) => parseServiceTime(text, "UTC") !== undefined, "expected a real date and time");

const invoiceCommon = {
  id: z.string().min(1),
  url: optionalTextSchema,
  state: z.string().min(1),
  type: z.string(),
  method: optionalTextSchema,
  required_method: optionalTextSchema.optional(),
  description: optionalTextSchema.optional(),
  redirect_url: optionalTextSchema.optional(),
  callback_url: optionalTextSchema.optional(),
  extra: optionalTextSchema.optional(),
  created_at: serviceTimeSchema,
  expired_at: serviceTimeSchema,
};

/** v2/invoice/info/: numbers for amounts, "" for unset text (the interface spec, 2.2). */
export const invoiceV2Schema = z.object({
  ...invoiceCommon,
  currency: currencySchema,
  service_commission: decimalSchema,
  extra_commission: decimalSchema,
  amount: decimalSchema,
  pay_amount: decimalSchema,
  remaining_amount: decimalSchema,
  balance_amount: decimalSchema,
});
export type InvoiceV2 = z.infer<typeof invoiceV2Schema>;

/**
 * v3/invoice/info/: decimal strings, null for unset, other field names (notes/payments-api.md).
 * `currency` is the newer name of `amount_currency` (the invoice currency): an answer may carry
 * either or both, but at least one. Fields the card only shows are read leniently below.
 */
export const invoiceV3Schema = z
  .object({
    ...invoiceCommon,
    amount_currency: currencySchema.nullish(),
    currency: currencySchema.nullish(),
    amount: decimalSchema.nullish(),
    initial_amount: decimalSchema.nullish(),
    rub_amount: decimalSchema.nullish(),
    remaining_amount: decimalSchema.nullish(),
    balance_amount: decimalSchema.nullish(),
    commission_amount: decimalSchema.nullish(),
    subtract_from: optionalTextSchema.optional(),
    final_at: serviceTimeSchema.nullish(),
  })
  .refine((raw) => raw.amount_currency || raw.currency, {
    message: "expected currency or amount_currency",
    path: ["currency"],
  })
  .refine((raw) => raw.amount != null || raw.initial_amount != null, {
    message: "expected amount or initial_amount",
    path: ["amount"],
  });
export type InvoiceV3 = z.infer<typeof invoiceV3Schema>;

/** Whole numbers that may come as JSON numbers or digit strings (v3 writes most values as strings). */
export const integerSchema = z
  .union([jsonNumberSchema.transform((value) => value.text), z.number().int().transform(String), z.string()])
  .pipe(z.string().regex(/^-?\d+$/, "expected a whole number"))
  .transform(Number);

/**
 * A map of methods read one entry at a time: an entry that does not fit `entry` is set aside with
 * the reason (and counted on the card), so one odd method never makes the whole list unreadable.
 */
function methodMap<T extends z.ZodType>(entry: T) {
  return z.record(z.string().min(1), z.unknown()).transform((items) => {
    const methods: [string, z.output<T>][] = [];
    const unreadable: { code: string; reason: string }[] = [];
    for (const [code, value] of Object.entries(items)) {
      const parsed = entry.safeParse(value);
      if (parsed.success) methods.push([code, parsed.data]);
      else {
        const issue = parsed.error.issues[0];
        unreadable.push({
          code,
          reason: `${issue?.path.join(".") || "entry"}: ${issue?.message ?? "invalid"}`,
        });
      }
    }
    return { methods, unreadable };
  });
}

/** v2/method/list/: `methods` maps an uppercase code to its settings (SPEC.md 2.3). */
export const methodListV2Schema = z.object({
  methods: methodMap(
    z.object({
      name: z.string(),
      enabled: z.boolean(),
      extra_commission_percent: decimalSchema,
      // Shown, never computed with: a value we cannot read is left out rather than failing the method.
      minimal_status_level: integerSchema.nullish().catch(null),
      currency: currencySchema,
      commission_percent: decimalSchema,
      commission: decimalSchema,
    }),
  ),
});
export type MethodListV2 = z.infer<typeof methodListV2Schema>;

const v3Commissions = z.object({ percent: decimalSchema, amount: decimalSchema });

/** One v3 method: an entry of method/list, and the answer of method/get (beside the envelope). */
export const methodV3Schema = z.object({
  name: z.string(),
  currency: currencySchema,
  amount_accuracy: integerSchema.nullish().catch(null),
  minimal_status_level: integerSchema.nullish().catch(null),
  settings: z
    .object({ in: z.object({ enabled: z.boolean(), extra_commissions: v3Commissions }).nullish() })
    .nullish(),
  in: z
    .object({
      enabled: z.boolean(),
      commissions: v3Commissions,
      limits: z
        .object({ min: decimalSchema.nullish().catch(null), max: decimalSchema.nullish().catch(null) })
        .nullish()
        .catch(null),
      fee: decimalSchema.nullish().catch(null),
    })
    .nullish(),
});
export type MethodV3 = z.infer<typeof methodV3Schema>;

/**
 * v3/method/list/: `items`, nested, decimal strings (notes/payments-api.md). An entry without `in`
 * is a payout-only method; a limit of "0" means no limit (both handled in methodsFromV3).
 */
export const methodListV3Schema = z.object({ items: methodMap(methodV3Schema) });
export type MethodListV3 = z.infer<typeof methodListV3Schema>;

/** A map PHP may write as `[]` when it is empty. */
const mapOrEmptyList = z.union([
  z.array(z.never()).transform((): Record<string, unknown> => ({})),
  z.record(z.string(), z.unknown()),
]);

/** v2/balance/info/: `balances` maps a method code to `{amount, currency}` (JSON numbers). */
export const balanceInfoV2Schema = z.object({
  balances: mapOrEmptyList.pipe(methodMap(z.object({ amount: decimalSchema, currency: currencySchema }))),
});
export type BalanceInfoV2 = z.infer<typeof balanceInfoV2Schema>;

/**
 * v3/balance/list/: `items` maps a method code to `{name, amount, currency, amount_accuracy}`
 * (decimal strings). PHP writes an empty map as `[]`: the service sends `items: []` when every
 * balance is 0, so an empty array reads as an empty map.
 */
export const balanceListV3Schema = z.object({
  items: mapOrEmptyList.pipe(
    methodMap(
      z.object({
        name: z.string().nullish(),
        amount: decimalSchema,
        currency: currencySchema,
        amount_accuracy: integerSchema.nullish().catch(null),
      }),
    ),
  ),
});
export type BalanceListV3 = z.infer<typeof balanceListV3Schema>;

/**
 * ticker/get/: prices of the asked currencies in roubles. The docs list the method, but no public
 * example of its answer could be confirmed, so this accepts the plausible forms rather than one
 * guess: `currencies` mapping a code to `{price}` or to the price itself, an optional
 * `base_currency` (RUB when absent), prices as JSON numbers (v2) or decimal strings (v3). A base
 * other than RUB is refused in ratesFrom; an entry that fits none of these leaves its currency
 * unpriced (then /balance shows no total), never the balances unread.
 */
const priceSchema = z
  .union([z.object({ price: decimalSchema }).transform((entry) => entry.price), decimalSchema])
  // A rouble price of zero or less is no price: it would make the total less than the roubles alone.
  .refine((price) => !price.startsWith("-") && /[1-9]/.test(price), { error: "not a positive price" });
export const tickerSchema = z.object({
  base_currency: currencySchema.nullish(),
  currencies: mapOrEmptyList.pipe(methodMap(priceSchema)),
});
export type TickerAnswer = z.infer<typeof tickerSchema>;

/**
 * invoice/create/: v2 `{id, url, amount, type}`, v3 `{id, url, type, rub_amount}`. Only the id and
 * the payment page are used; the card is read with invoice/info afterwards (the service's own view).
 */
export const createdInvoiceSchema = z.object({ id: z.string().min(1), url: z.string().min(1) });
