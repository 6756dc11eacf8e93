import type { webApi } from "@slack/bolt";
import { PAYOUT_CALLBACK_QUERY } from "../../callbacks/receive.js";
import type { Lang } from "../../i18n/lang.js";
import type { SubtractFrom } from "../../payments/payoff-model.js";
import { trustedByWallet } from "../../payout-recipients/lookup.js";
import type { Recipient } from "../../payout-recipients/model.js";
import { payoutNoticeSchema } from "../../payouts/notice-model.js";
import { announceRequest } from "../../payouts/notices.js";
import type { InvoicePaid } from "../../payouts/refund-record.js";
import type { PayoutRequest } from "../../payouts/request-model.js";
import { type RequestRefusal, requestPayout } from "../../payouts/requests.js";
import { within } from "../../util/within.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";

/** How long a request waits for the method's balance, shown on its card (the request goes on without it). */
export const CARD_BALANCE_BUDGET_MS = 1500;

export type AskDeps = ManagerDeps & Pick<ListenerDeps, "payouts" | "payments" | "now" | "callbacks">;

/** What a person asked for, from the one-line command or the form. */
export type PayoutAsked = {
  team: string;
  user: string;
  enterpriseId?: string | undefined;
  register: { key: string; name: string; several: boolean };
  lang: Lang;
  amount: string;
  method: string;
  wallet: string;
  subtractFrom: SubtractFrom;
  reason: string;
  reference: string;
  /** A refund: the paid invoice and what its payment brought in. */
  refundOf?: { invoiceId: string; paid: InvoicePaid } | undefined;
  /** The trusted recipient picked in the form (its method and wallet are the ask's); else found by wallet. */
  recipient?: Recipient | undefined;
};

export type AskResult =
  | { kind: "requested"; request: PayoutRequest; channel: string }
  | { kind: "refused"; refusal: RequestRefusal };

/** The method's balance now, if read in time and in the payout's currency's method (null otherwise). */
async function balanceOf(deps: AskDeps, key: string, method: string) {
  const report = await within(
    deps.payments.balances(key).catch(() => null),
    CARD_BALANCE_BUDGET_MS,
  );
  const found = report?.balances.find((balance) => balance.code.toUpperCase() === method.toUpperCase());
  return found ? { value: found.amount.value, currency: found.amount.currency } : null;
}

/**
 * A payout request from Slack: the policy, the caps and the service's quote (requestPayout), stored
 * with its notice (where the card goes, the balance and the day's total it shows), then the card and
 * the requester's copy posted. A card Slack did not take now is posted by the worker (due now); one
 * this process never got to post, at the worker's first look.
 */
export async function askPayout(
  deps: AskDeps,
  client: webApi.WebClient,
  asked: PayoutAsked,
): Promise<AskResult> {
  const who = { userId: asked.user, teamId: asked.team, enterpriseId: asked.enterpriseId };
  const isAdmin = async () => (await checkManager(deps, client, who)).allowed;
  const now = deps.now();
  const payouts = { ...deps.payouts, isAdmin };
  // With PUBLIC_URL, the service posts the payout's end to the register's address: told at once.
  const callbackUrl =
    deps.callbacks && `${await deps.callbacks.address(asked.register.key)}${PAYOUT_CALLBACK_QUERY}`;
  // The method's balance, for its card, and its currency: a RUB payout is held against the caps at once.
  const balance = await balanceOf(deps, asked.register.key, asked.method);
  // A wallet typed that is a trusted recipient's (the same method) pays that recipient.
  const recipient =
    asked.recipient ?? (await trustedByWallet(deps.payouts, asked.register.key, asked.method, asked.wallet));
  let channel = "";
  const result = await requestPayout(
    payouts,
    {
      registerKey: asked.register.key,
      requester: asked.user,
      amount: asked.amount,
      method: asked.method,
      wallet: asked.wallet,
      subtractFrom: asked.subtractFrom,
      reason: asked.reason,
      reference: asked.reference,
      currency: balance?.currency,
      callbackUrl,
      refundOf: asked.refundOf,
      ...(recipient
        ? { recipient: { id: recipient.id, label: recipient.label }, walletExtra: recipient.walletExtra }
        : {}),
    },
    now,
    // Written with the request: the worker posts a card this process did not get to post.
    (_request, totals, policy) => {
      channel = policy.channel;
      return payoutNoticeSchema.parse({
        v: 1,
        channel,
        requester: asked.user,
        register: asked.register.name,
        several: asked.register.several,
        lang: asked.lang,
        balance,
        today: { total: totals.requester, cap: policy.requesterDaily },
        told: [],
      });
    },
  );
  if (result.kind === "refused") return result;
  const { request } = result;
  await announceRequest(deps.payouts, client, request.id, now);
  return { kind: "requested", request, channel };
}
