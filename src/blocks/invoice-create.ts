import type { types } from "@slack/bolt";
import Big from "big.js";
import type { InvoiceDraft } from "../payments/client.js";
import type { PaymentMethod } from "../payments/model.js";
import { INPUT_ACTION_ID, selectOption } from "./form.js";
import { CREATE_INVOICE_VIEW } from "./ids.js";
import { truncate } from "./mrkdwn.js";

export { CREATE_INVOICE_VIEW } from "./ids.js";
/** Block ids of the create modal's inputs; response_action errors are keyed by them. */
export const CREATE_FIELDS = {
  amount: "amount",
  currency: "currency",
  lifetime: "lifetime",
  description: "description",
  extra: "extra",
  method: "required_method",
} as const;
/** Slack allows at most 100 options in a static_select. */
const SELECT_OPTIONS = 100;

/**
 * Currencies offered for the invoice. The service converts the invoice's currency to roubles; its
 * docs name the field but publish no list, so this is a short list of common ones rather than a
 * guess at all: anything it does not take comes back as its own refusal, shown next to the amount.
 */
export const CREATE_CURRENCIES = ["RUB", "USD", "EUR", "BTC", "USDT"] as const;
export const DEFAULT_LIFETIME_MINUTES = 60;
/** The service keeps a payment page open at most 3 days. */
export const MAX_LIFETIME_MINUTES = 4320;
const MAX_DESCRIPTION = 500;
const MAX_EXTRA = 200;
/** An exact decimal above zero: digits, an optional point and up to 8 decimals (no sign, no exponent). */
const AMOUNT_PATTERN = /^\d{1,15}(\.\d{1,8})?$/;

/** Where the modal was opened: the workspace and the channel the card goes to (no secrets). */
export type CreateOrigin = { t: string; c: string };

export type CreateForm = {
  amount?: string | undefined;
  currency?: string | undefined;
  description?: string | undefined;
  /** Enabled methods for the "required method" select; undefined: the list was not available. */
  methods?: PaymentMethod[] | undefined;
  origin: CreateOrigin;
};

/** The `/invoice new` modal, pre-filled from the command's text when it gave amount, currency, description. */
export function createInvoiceModal(form: CreateForm): types.ModalView {
  const currencies = CREATE_CURRENCIES.map((code) => selectOption(code, code));
  const currency = currencies.find((entry) => entry.value === form.currency?.toUpperCase()) ?? currencies[0];
  const blocks: types.KnownBlock[] = [
    {
      type: "input",
      block_id: CREATE_FIELDS.amount,
      label: { type: "plain_text", text: "Amount" },
      hint: { type: "plain_text", text: "Exact, with a point for decimals: 1500 or 0.0005." },
      element: {
        type: "plain_text_input",
        action_id: INPUT_ACTION_ID,
        max_length: 30,
        placeholder: { type: "plain_text", text: "1500" },
        ...(form.amount ? { initial_value: truncate(form.amount, 30) } : {}),
      },
    },
    {
      type: "input",
      block_id: CREATE_FIELDS.currency,
      label: { type: "plain_text", text: "Currency" },
      hint: { type: "plain_text", text: "The payment service converts it to roubles at its own rate." },
      element: {
        type: "static_select",
        action_id: INPUT_ACTION_ID,
        options: currencies,
        ...(currency ? { initial_option: currency } : {}),
      },
    },
    {
      type: "input",
      block_id: CREATE_FIELDS.lifetime,
      label: { type: "plain_text", text: "Payment page open for (minutes)" },
      hint: { type: "plain_text", text: `1 to ${MAX_LIFETIME_MINUTES} minutes (3 days).` },
      element: {
        type: "plain_text_input",
        action_id: INPUT_ACTION_ID,
        max_length: 4,
        initial_value: String(DEFAULT_LIFETIME_MINUTES),
      },
    },
    {
      type: "input",
      block_id: CREATE_FIELDS.description,
      optional: true,
      label: { type: "plain_text", text: "Description" },
      hint: { type: "plain_text", text: "Shown to the payer on the payment page." },
      element: {
        type: "plain_text_input",
        action_id: INPUT_ACTION_ID,
        max_length: MAX_DESCRIPTION,
        ...(form.description ? { initial_value: truncate(form.description, MAX_DESCRIPTION) } : {}),
      },
    },
    {
      type: "input",
      block_id: CREATE_FIELDS.extra,
      optional: true,
      label: { type: "plain_text", text: "Order reference" },
      hint: {
        type: "plain_text",
        text: "Your own reference, kept with the invoice (not shown to the payer).",
      },
      element: { type: "plain_text_input", action_id: INPUT_ACTION_ID, max_length: MAX_EXTRA },
    },
  ];
  const methods = (form.methods ?? []).slice(0, SELECT_OPTIONS);
  if (methods.length > 0) {
    blocks.push({
      type: "input",
      block_id: CREATE_FIELDS.method,
      optional: true,
      label: { type: "plain_text", text: "Only this payment method" },
      hint: { type: "plain_text", text: "Leave empty to let the payer choose." },
      element: {
        type: "static_select",
        action_id: INPUT_ACTION_ID,
        placeholder: { type: "plain_text", text: "Any method" },
        options: methods.map((method) => selectOption(`${method.name} (${method.currency})`, method.code)),
      },
    });
  }
  return {
    type: "modal",
    callback_id: CREATE_INVOICE_VIEW,
    title: { type: "plain_text", text: "New invoice" },
    submit: { type: "plain_text", text: "Create" },
    close: { type: "plain_text", text: "Cancel" },
    private_metadata: JSON.stringify(form.origin),
    blocks,
  };
}

/** What the modal's fields held when submitted (absent fields as undefined). */
export type CreateInput = {
  amount?: string | null | undefined;
  currency?: string | null | undefined;
  lifetime?: string | null | undefined;
  description?: string | null | undefined;
  extra?: string | null | undefined;
  requiredMethod?: string | null | undefined;
};

/** Checks the submitted fields: the draft, or an error per block id (shown next to each field). */
export function validateCreateInput(
  input: CreateInput,
): { ok: true; draft: InvoiceDraft } | { ok: false; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const amountText = (input.amount ?? "").trim();
  let amount = "";
  if (amountText === "") errors[CREATE_FIELDS.amount] = "Enter the amount.";
  else if (!AMOUNT_PATTERN.test(amountText))
    errors[CREATE_FIELDS.amount] =
      "Enter a number like 1500 or 99.90: digits, a point for decimals (at most 8), no spaces or signs.";
  else if (new Big(amountText).lte(0)) errors[CREATE_FIELDS.amount] = "The amount must be more than 0.";
  // Big normalises "0100.50" to "100.5" without ever going through a float.
  else amount = new Big(amountText).toFixed();
  const currency = (input.currency ?? "RUB").toUpperCase();
  if (!(CREATE_CURRENCIES as readonly string[]).includes(currency))
    errors[CREATE_FIELDS.currency] = "Pick one of the listed currencies.";
  const lifetimeText = (input.lifetime ?? "").trim();
  const lifetime = /^\d{1,5}$/.test(lifetimeText) ? Number(lifetimeText) : Number.NaN;
  if (!(lifetime >= 1 && lifetime <= MAX_LIFETIME_MINUTES))
    errors[CREATE_FIELDS.lifetime] = `Enter whole minutes from 1 to ${MAX_LIFETIME_MINUTES}.`;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const text = (value: string | null | undefined) => value?.trim() || undefined;
  return {
    ok: true,
    draft: {
      amount,
      currency,
      lifetimeMinutes: lifetime,
      description: text(input.description),
      extra: text(input.extra),
      requiredMethod: text(input.requiredMethod),
    },
  };
}

export {
  createdWithoutCardMessage,
  createFailedMessage,
  createNotAllowedMessage,
  createNotSentMessage,
  createRefusedMessage,
  refusalText,
} from "./invoice-create-replies.js";
