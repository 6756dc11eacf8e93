import type { types } from "@slack/bolt";
import { CREATE_TEXT } from "../i18n/invoice-create.js";
import type { Lang } from "../i18n/lang.js";
import { REGISTERS_TEXT } from "../i18n/registers.js";
import { Big } from "../payments/decimal.js";
import type { InvoiceDraft, PaymentMethod } from "../payments/model.js";
import { modal, selectInput, selectOption, textInput } from "./form.js";
import { CREATE_INVOICE_VIEW } from "./ids.js";
import { methodSelect } from "./invoice-create-method.js";
import { checkRemind, REMIND_BLOCK, remindInput } from "./invoice-create-remind.js";
import { type RepeatForm, repeatBlocks } from "./invoice-repeat.js";
import { escapeMrkdwn } from "./mrkdwn.js";

export { CREATE_INVOICE_VIEW } from "./ids.js";
/** Block ids of the create modal's inputs; response_action errors are keyed by them. */
export const CREATE_FIELDS = {
  amount: "amount",
  currency: "currency",
  lifetime: "lifetime",
  description: "description",
  customer: "customer",
  email: "payer_email",
  extra: "extra",
  method: "required_method",
  remind: REMIND_BLOCK,
} as const;

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
/** The customer is a label Kassa keeps and shows on the card (never sent to the service). */
export const MAX_CUSTOMER = 80;
const MAX_EMAIL = 254;
/** An e-mail as a payer types it: one @, a dot after it, no spaces or brackets. */
const EMAIL_PATTERN = /^[^\s@<>()[\]",;:]+@[^\s@<>()[\]",;:]+\.[^\s@<>()[\]",;:.][^\s@<>()[\]",;:]*$/;
/** An exact decimal above zero: digits, an optional point and up to 8 decimals (no sign, no exponent). */
const AMOUNT_PATTERN = /^\d{1,15}(\.\d{1,8})?$/;

/**
 * Where the modal was opened: the workspace, the channel the card goes to and the register's name
 * (`r`; absent: main, as forms opened before registers say). No secrets.
 */
export type CreateOrigin = { t: string; c: string; r?: string };

export type CreateForm = RepeatForm & {
  amount?: string | undefined;
  currency?: string | undefined;
  description?: string | undefined;
  customer?: string | undefined;
  email?: string | undefined;
  remind?: number | undefined;
  /** The register takes a payer's e-mail (API v3): the form offers the field. */
  emailOffered?: boolean | undefined;
  /** Enabled methods for the "required method" select; undefined: the list was not available. */
  methods?: PaymentMethod[] | undefined;
  origin: CreateOrigin;
  /** The workspace's language (English by default). */
  lang?: Lang;
  /** The register the invoice is created in, said at the top where the workspace has several. */
  register?: { name: string; how: "named" | "channel" | "default" } | undefined;
};

/** The `/invoice new` modal, pre-filled from the command's text when it gave amount, currency, description. */
export function createInvoiceModal(form: CreateForm): types.ModalView {
  const lang = form.lang ?? "en";
  const t = CREATE_TEXT[lang];
  const registerLine: types.KnownBlock[] = form.register
    ? [
        {
          type: "context",
          elements: [
            {
              type: "mrkdwn",
              text: REGISTERS_TEXT[lang].footer(escapeMrkdwn(form.register.name), form.register.how),
            },
          ],
        },
      ]
    : [];
  return modal({
    callbackId: CREATE_INVOICE_VIEW,
    title: t.title,
    submit: t.submit,
    close: t.cancel,
    privateMetadata: JSON.stringify(form.origin),
    blocks: [
      ...registerLine,
      ...invoiceInputs(form, t),
      ...methodSelect(CREATE_FIELDS.method, form.methods, t),
      ...repeatBlocks(form, lang),
    ],
  });
}

type CreateText = (typeof CREATE_TEXT)[Lang];

/** Amount, currency, lifetime, description, who it is for and the extra note. */
function invoiceInputs(form: CreateForm, t: CreateText): types.KnownBlock[] {
  return [
    textInput({
      block: CREATE_FIELDS.amount,
      label: t.amount,
      hint: t.amountHint,
      maxLength: 30,
      placeholder: "1500",
      initial: form.amount,
    }),
    selectInput({
      block: CREATE_FIELDS.currency,
      label: t.currency,
      hint: t.currencyHint,
      options: CREATE_CURRENCIES.map((code) => selectOption(code, code)),
      initial:
        CREATE_CURRENCIES.find((code) => code === form.currency?.toUpperCase()) ?? CREATE_CURRENCIES[0],
    }),
    textInput({
      block: CREATE_FIELDS.lifetime,
      label: t.lifetime,
      hint: t.lifetimeHint(MAX_LIFETIME_MINUTES),
      maxLength: 4,
      initial: String(DEFAULT_LIFETIME_MINUTES),
    }),
    remindInput(form.remind, form.lang ?? "en"),
    textInput({
      block: CREATE_FIELDS.description,
      optional: true,
      label: t.description,
      hint: t.descriptionHint,
      maxLength: MAX_DESCRIPTION,
      initial: form.description,
    }),
    ...customerInputs(form, t),
    textInput({
      block: CREATE_FIELDS.extra,
      optional: true,
      label: t.extra,
      hint: t.extraHint,
      maxLength: MAX_EXTRA,
    }),
  ];
}

/** The customer (a label Kassa keeps) and, where the register takes it (v3), the payer's e-mail. */
function customerInputs(form: CreateForm, t: CreateText): types.KnownBlock[] {
  const customer = textInput({
    block: CREATE_FIELDS.customer,
    optional: true,
    label: t.customer,
    hint: t.customerHint,
    maxLength: MAX_CUSTOMER,
    initial: form.customer?.slice(0, MAX_CUSTOMER),
  });
  if (!form.emailOffered) return [customer];
  const email = textInput({
    block: CREATE_FIELDS.email,
    optional: true,
    label: t.email,
    hint: t.emailHint,
    maxLength: MAX_EMAIL,
    initial: form.email?.slice(0, MAX_EMAIL),
  });
  return [customer, email];
}

/** What the modal's fields held when submitted (absent fields as undefined). */
export type CreateInput = {
  amount?: string | null | undefined;
  currency?: string | null | undefined;
  lifetime?: string | null | undefined;
  description?: string | null | undefined;
  customer?: string | null | undefined;
  email?: string | null | undefined;
  extra?: string | null | undefined;
  requiredMethod?: string | null | undefined;
  remind?: string | null | undefined;
};

/** The draft to send and the customer Kassa keeps, or an error per block id (shown next to each field). */
export type CheckedCreate =
  | { ok: true; draft: InvoiceDraft; customer?: string | undefined; remind?: number | undefined }
  | { ok: false; errors: Record<string, string> };

/** Checks the submitted fields: the draft, or an error per block id (shown next to each field). */
export function validateCreateInput(input: CreateInput, lang: Lang = "en"): CheckedCreate {
  const t = CREATE_TEXT[lang];
  const errors: Record<string, string> = {};
  const amountText = (input.amount ?? "").trim();
  let amount = "";
  if (amountText === "") errors[CREATE_FIELDS.amount] = t.enterAmount;
  else if (!AMOUNT_PATTERN.test(amountText)) errors[CREATE_FIELDS.amount] = t.amountForm;
  else if (new Big(amountText).lte(0)) errors[CREATE_FIELDS.amount] = t.amountPositive;
  // Big normalises "0100.50" to "100.5" without ever going through a float.
  else amount = new Big(amountText).toFixed();
  const currency = (input.currency ?? "RUB").toUpperCase();
  if (!(CREATE_CURRENCIES as readonly string[]).includes(currency))
    errors[CREATE_FIELDS.currency] = t.pickCurrency;
  const lifetimeText = (input.lifetime ?? "").trim();
  const lifetime = /^\d{1,5}$/.test(lifetimeText) ? Number(lifetimeText) : Number.NaN;
  if (!(lifetime >= 1 && lifetime <= MAX_LIFETIME_MINUTES))
    errors[CREATE_FIELDS.lifetime] = t.wholeMinutes(MAX_LIFETIME_MINUTES);
  const remind = checkRemind(input.remind, lifetime, lang, errors);
  const text = (value: string | null | undefined) => value?.trim() || undefined;
  const customer = text(input.customer);
  if (customer && customer.length > MAX_CUSTOMER)
    errors[CREATE_FIELDS.customer] = t.customerLong(MAX_CUSTOMER);
  const email = text(input.email);
  if (email && (email.length > MAX_EMAIL || !EMAIL_PATTERN.test(email)))
    errors[CREATE_FIELDS.email] = t.emailForm;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    draft: {
      amount,
      currency,
      lifetimeMinutes: lifetime,
      description: text(input.description),
      extra: text(input.extra),
      payerDetails: email,
      requiredMethod: text(input.requiredMethod),
    },
    customer,
    remind,
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
