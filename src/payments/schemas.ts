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

/** v3/invoice/info/: decimal strings, null for unset, other field names (notes/payments-api.md). */
export const invoiceV3Schema = z.object({
  ...invoiceCommon,
  amount_currency: currencySchema,
  currency: currencySchema.nullish(),
  amount: decimalSchema.nullish(),
  initial_amount: decimalSchema,
  rub_amount: decimalSchema.nullish(),
  remaining_amount: decimalSchema.nullish(),
  balance_amount: decimalSchema.nullish(),
  commission_amount: decimalSchema.nullish(),
  subtract_from: optionalTextSchema.optional(),
  final_at: serviceTimeSchema.nullish(),
});
export type InvoiceV3 = z.infer<typeof invoiceV3Schema>;

/** Whole numbers that may come as JSON numbers or digit strings (v3 writes most values as strings). */
export const integerSchema = z
  .union([jsonNumberSchema.transform((value) => value.text), z.number().int().transform(String), z.string()])
  .pipe(z.string().regex(/^-?\d+$/, "expected a whole number"))
  .transform(Number);

/** v2/method/list/: `methods` maps an uppercase code to its settings (SPEC.md 2.3). */
export const methodListV2Schema = z.object({
  methods: z.record(
    z.string().min(1),
    z.object({
      name: z.string(),
      enabled: z.boolean(),
      extra_commission_percent: decimalSchema,
      minimal_status_level: integerSchema,
      currency: currencySchema,
      commission_percent: decimalSchema,
      commission: decimalSchema,
    }),
  ),
});
export type MethodListV2 = z.infer<typeof methodListV2Schema>;

const v3Commissions = z.object({ percent: decimalSchema, amount: decimalSchema });

/** v3/method/list/: `items`, nested, decimal strings (notes/payments-api.md). */
export const methodListV3Schema = z.object({
  items: z.record(
    z.string().min(1),
    z.object({
      name: z.string(),
      currency: currencySchema,
      amount_accuracy: integerSchema.nullish(),
      minimal_status_level: integerSchema,
      settings: z.object({
        in: z.object({ enabled: z.boolean(), extra_commissions: v3Commissions }),
      }),
      in: z.object({
        enabled: z.boolean(),
        commissions: v3Commissions,
        limits: z.object({ min: decimalSchema.nullish(), max: decimalSchema.nullish() }).nullish(),
        fee: decimalSchema.nullish(),
      }),
    }),
  ),
});
export type MethodListV3 = z.infer<typeof methodListV3Schema>;
