import { formatMoney } from "../blocks/format.js";
import { isExpired } from "../blocks/invoice-state.js";
import { stateLabel } from "../blocks/watch.js";
import type { Lang } from "../i18n/lang.js";
import { STEPS_TEXT } from "../i18n/steps.js";
import { findInvoice } from "../invoices/lookup.js";
import { NotConnectedError } from "../payments/errors.js";
import type { Invoice, Money } from "../payments/model.js";
import { INVOICE_ID_PATTERN, parsePaymentLink } from "../payments/payment-link.js";
import type { StepArgs, StepDeps, StepOutputs, StepResult } from "./deps.js";
import { statusFailure } from "./failures.js";
import { STEP_IDS, statusInputsSchema } from "./inputs.js";
import { stepRegister, stepRegisters } from "./register.js";
import { runStep, type StepRun } from "./run.js";

/**
 * Invoice status: reads one invoice with the workspace's cash register, as `/invoice <id>` does, and
 * gives later steps what to branch on. Anyone's workflow may read, as anyone may type `/invoice`.
 */
export const invoiceStatusStep =
  (deps: StepDeps) =>
  async (args: StepArgs): Promise<void> =>
    runStep(
      deps,
      args,
      {
        step: STEP_IDS.invoiceStatus,
        withoutStore: "go",
        internal: (lang, reference) => STEPS_TEXT[lang].statusInternal(reference),
        storeDown: (lang) => STEPS_TEXT[lang].storeDown,
      },
      (run) => invoiceStatus(deps, args.inputs, run),
    );

/** An invoice id, or the id in a payment page link (Workflow Builder may hand over `<url>`). */
export function invoiceIdOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const unwrapped = /^<([^|>]+)(\|[^>]*)?>$/.exec(text)?.[1] ?? text;
  if (/^https?:\/\//i.test(unwrapped)) return parsePaymentLink(unwrapped)?.invoiceId;
  return INVOICE_ID_PATTERN.test(unwrapped) ? unwrapped : undefined;
}

async function invoiceStatus(deps: StepDeps, given: unknown, run: StepRun): Promise<StepResult> {
  const t = STEPS_TEXT[run.lang];
  const parsed = statusInputsSchema.safeParse(given);
  const invoiceId = parsed.success ? invoiceIdOf(parsed.data.invoice) : undefined;
  if (!invoiceId) return { done: false, error: t.notAnInvoice, reason: "invalid_inputs" };
  const asked = parsed.success ? parsed.data.register : undefined;
  const named = asked === undefined ? undefined : await stepRegister(deps.stores, run.teamId, asked);
  if (asked !== undefined && !named)
    return { done: false, error: t.unknownRegister(asked), reason: "unknown_register" };
  try {
    if (!(await deps.stores.credentials.get(named?.key ?? run.teamId)))
      throw new NotConnectedError(run.teamId);
    // Named: that register only; else each of the workspace's, main first (an id is one register's).
    const registers = named ? [named] : await stepRegisters(deps.stores, run.teamId);
    const { invoice } = await findInvoice(deps, registers, invoiceId);
    return {
      done: true,
      outputs: statusOutputs(invoice, deps.now(), run.lang),
      log: { invoice: invoiceId, state: invoice.state },
    };
  } catch (error) {
    return { ...statusFailure(error, run.lang), log: { invoice: invoiceId } };
  }
}

/**
 * The outputs later steps branch on. `state` is the service's own code (notpayed, processing,
 * wrongamount, payed, failed, unavailable), or `expired` for an unpaid invoice past its expiry, as
 * the card says; amounts are exact decimal text, each with its currency as the service's answer
 * ties it; the paid amount only once the invoice is paid.
 */
export function statusOutputs(invoice: Invoice, now: Date, lang: Lang): StepOutputs {
  const state = isExpired(invoice, now) ? "expired" : invoice.state;
  const amount = invoice.amounts.amount;
  const paid = invoice.state === "payed" ? (invoice.amounts.payAmount ?? amount) : undefined;
  return {
    invoice_id: invoice.id,
    state,
    state_label: stateLabel(state, lang),
    is_paid: invoice.state === "payed",
    ...moneyOutputs("amount", "currency", amount),
    ...(amount?.currency ? { amount_text: formatMoney(amount, lang) } : {}),
    ...moneyOutputs("paid_amount", "paid_currency", paid),
    ...(invoice.method ? { method: invoice.method } : {}),
    ...(invoice.url ? { payment_url: invoice.url } : {}),
  };
}

function moneyOutputs(value: string, currency: string, money: Money | undefined): StepOutputs {
  if (!money) return {};
  return { [value]: money.value, ...(money.currency ? { [currency]: money.currency } : {}) };
}
