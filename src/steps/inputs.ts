import { z } from "zod";

/** The steps' callback ids: the keys of manifest.yml's `functions`. */
export const STEP_IDS = { createInvoice: "create_invoice", invoiceStatus: "invoice_status" } as const;

/** Every input and output of each step, by name, as manifest.yml declares them (the manifest test checks). */
export const STEP_PARAMETERS = {
  [STEP_IDS.createInvoice]: {
    inputs: [
      "amount",
      "currency",
      "description",
      "lifetime_minutes",
      "channel_id",
      "notify_user",
      "register",
      "customer",
      "email",
      "remind",
    ],
    outputs: [
      "invoice_id",
      "payment_url",
      "amount",
      "currency",
      "amount_text",
      "card_posted",
      "card_problem",
    ],
  },
  [STEP_IDS.invoiceStatus]: {
    inputs: ["invoice", "register"],
    outputs: [
      "invoice_id",
      "state",
      "state_label",
      "is_paid",
      "amount",
      "currency",
      "amount_text",
      "paid_amount",
      "paid_currency",
      "method",
      "payment_url",
    ],
  },
} as const;

/** Workflow Builder sends an empty optional input as absent, null or "": all mean "not given". */
const optionalText = z
  .string()
  .nullish()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

/**
 * A number input may reach a text one (a form's number question): its JavaScript text is taken as
 * typed, never rounded, so 1e21 or 0.30000000000000004 is refused by the amount check, not changed.
 */
const textOrNumber = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((value) =>
    value === null || value === undefined ? undefined : String(value).trim() || undefined,
  );

const slackId = (pattern: RegExp) =>
  optionalText.refine((value) => value === undefined || pattern.test(value), "not a Slack id");

/** What a Create invoice run gives; the amount, currency and minutes are checked as /invoice new checks them. */
export const createInputsSchema = z.object({
  amount: textOrNumber,
  currency: optionalText,
  description: optionalText,
  lifetime_minutes: textOrNumber,
  /** Post a live card of the new invoice here. */
  channel_id: slackId(/^[CGD][A-Z0-9]{2,}$/),
  /** Mention this person in the card's thread when the invoice changes (paid, expired, …). */
  notify_user: slackId(/^[UW][A-Z0-9]{2,}$/),
  /** The workspace's register to create it with (main when empty). */
  register: optionalText,
  /** Who it is for: a label Kassa keeps and shows on the card (issue 51). */
  customer: optionalText,
  /** The payer's e-mail, sent as payer_details (API v3 registers only). */
  email: optionalText,
  /** Remind the workflow's person before the link expires: 1h or 6h (issue 51); empty: no reminder. */
  remind: optionalText,
});
export type CreateInputs = z.infer<typeof createInputsSchema>;

/** What an Invoice status run gives: an invoice id or a payment page link. */
export const statusInputsSchema = z.object({
  invoice: optionalText,
  /** Read it from this register only; empty: each of the workspace's registers, main first. */
  register: optionalText,
});

/** The inputs whose values could not be read at all (wrong type, not a Slack id), for the failure message. */
export function unreadableInputs(error: z.ZodError): string[] {
  return [...new Set(error.issues.map((issue) => String(issue.path[0] ?? "")))].filter(Boolean);
}
