import { z } from "zod";
import { toDecimalString } from "./decimal.js";
import { parseServiceTime, SERVICE_TIME_PATTERN } from "./time.js";

/** Every answer: `error` and the service's messages. Unknown fields are allowed everywhere. */
export const envelopeSchema = z.object({
  error: z.boolean(),
  errors: z.array(z.string()).nullish(),
});

/** An amount: a JSON number (v2) or a decimal string (v3); anything else is a wrong type. */
export const decimalSchema = z.union([z.number(), z.string()]).transform((value, ctx) => {
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

/** v2/invoice/info/: numbers for amounts, "" for unset text (SPEC.md 2.2). */
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
