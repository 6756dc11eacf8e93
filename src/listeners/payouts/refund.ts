import type { webApi } from "@slack/bolt";
import { amountUnreadText, requestRefusedMessage } from "../../blocks/payout-replies.js";
import { refundModal, refundRefusalText } from "../../blocks/refunds.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { REFUND_TEXT } from "../../i18n/refunds.js";
import { lookupInvoice } from "../../invoices/lookup.js";
import type { Invoice } from "../../payments/model.js";
import { type PayoutPolicy, payoutsOn } from "../../payouts/policy.js";
import { type RefundCheckRefusal, refundableNow } from "../../payouts/refund-ask.js";
import type { InvoicePaid, RefundFigures } from "../../payouts/refund-record.js";
import { refundFigures } from "../../payouts/refund-settle.js";
import { slackErrorCode } from "../../slack/error.js";
import { readWrittenAmount } from "../../util/rub-amount.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";

// Refunds (issue 52), from `/payout refund INVOICE_ID [AMOUNT] REASON` and from the Refund button on a
// paid invoice's card: the invoice checked (paid, something left to refund), then the form asking for
// the wallet. Its submission is a payout request tied to the invoice (views/payout-request.ts).

/** How long the form waits for the payout methods: the trigger_id lapses 3 s after the click. */
const REFUND_METHODS_BUDGET_MS = 1000;

export type RefundFormDeps = ManagerDeps &
  Pick<ListenerDeps, "payouts" | "payoutPolicies" | "payments" | "now">;

/** A refund asked for: who, where, which invoice, and the amount and reason typed (if any). */
export type RefundAsked = {
  team: string;
  user: string;
  enterpriseId?: string | undefined;
  channel: string;
  triggerId: string;
  register: ChosenRegister;
  lang: Lang;
  invoiceId: string;
  /** As written (an exact decimal), or undefined: what is left is proposed. */
  amount?: string | undefined;
  reason: string;
};

/** `refund ID [AMOUNT] REASON` (or `возврат …`); `usage` when it starts so but says no more. */
export function parseRefundLine(
  text: string,
): { invoiceId: string; amount: string | undefined; reason: string } | "usage" | undefined {
  if (!/^(refund|возврат)(\s|$)/i.test(text.trim())) return undefined;
  const match = /^\S+\s+(\S+)(?:\s+(\d[\d.,]*))?(?:\s+(\S[\s\S]*))?$/.exec(text.trim());
  if (!match?.[1]) return "usage";
  return { invoiceId: match[1], amount: match[2], reason: (match[3] ?? "").trim() };
}

/** Whether `user` may request payouts by the policy (its requesters, else the workspace's admins). */
async function mayRequest(
  deps: ManagerDeps,
  client: webApi.WebClient,
  asked: RefundAsked,
  policy: PayoutPolicy,
) {
  if (policy.requesters.length > 0) return policy.requesters.includes(asked.user);
  return (
    await checkManager(deps, client, {
      userId: asked.user,
      teamId: asked.team,
      enterpriseId: asked.enterpriseId,
    })
  ).allowed;
}

function refused(refusal: RefundCheckRefusal, lang: Lang): Produced {
  const reply = ephemeral(
    `:no_entry_sign: ${refundRefusalText(refusal, lang)}`,
    REFUND_TEXT[lang].refusedFallback,
  );
  return { reply, log: { outcome: "refund_refused", refusal: refusal.kind } };
}

/**
 * The refund form for a paid invoice, for those who may request payouts where payouts are on;
 * otherwise why not (not paid, nothing left, more than is left), said before any form or quote.
 */
export async function openRefundForm(
  deps: RefundFormDeps,
  client: webApi.WebClient,
  asked: RefundAsked,
  note: Note,
): Promise<Produced> {
  note({ action: "refund", invoice: asked.invoiceId });
  const { lang, register } = asked;
  const policy = await deps.payoutPolicies.get(register.key);
  if (!payoutsOn(policy)) return refusedRequest({ kind: "payouts_off" }, asked);
  if (!(await mayRequest(deps, client, asked, policy)))
    return refusedRequest({ kind: "not_a_requester", requesters: policy.requesters }, asked);
  const invoice = await lookupInvoice(deps, register.key, asked.invoiceId);
  const now = deps.now();
  const checked = await refundableNow(deps.payouts, register.key, invoice, asked.amount, now);
  if ("refusal" in checked) return refused(checked.refusal, lang);
  const listed = await deps.payments.payoffMethodListWithin(register.key, REFUND_METHODS_BUDGET_MS);
  const allowed = (code: string) =>
    policy.methods.length === 0 || policy.methods.some((one) => one.toUpperCase() === code.toUpperCase());
  const methods = Array.isArray(listed) ? listed.filter((method) => allowed(method.code)) : undefined;
  const view = refundModal({
    register: register.name,
    channel: policy.channel,
    invoice: { id: invoice.id, method: invoice.method },
    figures: checked.figures,
    methods,
    amount: asked.amount,
    reason: asked.reason,
    origin: { t: asked.team, c: asked.channel, r: register.name, i: invoice.id },
    lang,
  });
  try {
    await client.views.open({ trigger_id: asked.triggerId, view });
  } catch (error) {
    const t = NOTICES_TEXT[lang];
    const reply = ephemeral(t.formNotOpened("/payout refund"), t.formNotOpenedFallback("/payout refund"));
    return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
  }
  return { reply: null, log: { outcome: "modal_opened", methods: methods?.length ?? "unavailable" } };
}

function refusedRequest(refusal: Parameters<typeof requestRefusedMessage>[0], asked: RefundAsked): Produced {
  return {
    reply: requestRefusedMessage(refusal, asked.register.name, asked.lang),
    log: { outcome: "payout_refused", refusal: refusal.kind },
  };
}

/**
 * The invoice a refund form names, read again when it is submitted: what its payment brought in
 * (the request holds its amount against it), or why it cannot be refunded now.
 */
export async function refundOfForm(
  deps: Pick<ListenerDeps, "payouts" | "payments" | "logger" | "now">,
  registerKey: string,
  invoiceId: string,
  amount: string,
): Promise<{ invoiceId: string; paid: InvoicePaid } | { refusal: RefundCheckRefusal }> {
  const invoice = await lookupInvoice(deps, registerKey, invoiceId);
  const checked = await refundableNow(deps.payouts, registerKey, invoice, amount, deps.now());
  return "refusal" in checked ? checked : { invoiceId, paid: checked.paid };
}

/**
 * What a paid invoice's card shows of its refunds: the figures (none asked: undefined), and whether
 * it offers Refund (the register's payouts are on). Never fails the card: unread, it shows neither.
 */
export async function refundsOnCard(
  deps: Pick<ListenerDeps, "payouts" | "payoutPolicies" | "now">,
  registerKey: string,
  invoice: Invoice,
): Promise<{ figures?: RefundFigures | undefined; button: boolean }> {
  if (invoice.state !== "payed") return { button: false };
  try {
    const [policy, figures] = await Promise.all([
      deps.payoutPolicies.get(registerKey),
      refundFigures(deps.payouts, registerKey, invoice.id, deps.now()),
    ]);
    return { figures, button: payoutsOn(policy) };
  } catch (error) {
    deps.payouts.logger.warn({ invoice: invoice.id, err: error }, "could not read an invoice's refunds");
    return { button: false };
  }
}

/** `/payout refund INVOICE_ID [AMOUNT] REASON`: the amount read as written, then the form (or why not). */
export async function refundFromCommand(
  deps: RefundFormDeps,
  client: webApi.WebClient,
  asked: Omit<RefundAsked, "invoiceId" | "amount" | "reason">,
  line: ReturnType<typeof parseRefundLine>,
  note: Note,
): Promise<Produced> {
  const t = REFUND_TEXT[asked.lang];
  if (!line || line === "usage" || line.reason === "")
    return { reply: ephemeral(t.usage, t.usageFallback), log: { outcome: "usage" } };
  const amount = line.amount === undefined ? undefined : readWrittenAmount(line.amount);
  if (amount && !amount.ok)
    return {
      reply: ephemeral(
        `:no_entry_sign: ${amountUnreadText(line.amount ?? "", amount.why, asked.lang)}`,
        t.refusedFallback,
      ),
      log: { outcome: "refund_refused", refusal: `amount_${amount.why}` },
    };
  const value = amount?.ok ? amount.value : undefined;
  return openRefundForm(deps, client, { ...asked, ...line, amount: value }, note);
}
