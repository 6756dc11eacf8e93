import type { webApi } from "@slack/bolt";
import { PAYOUT_CALLBACK_QUERY } from "../../callbacks/receive.js";
import type { Lang } from "../../i18n/lang.js";
import type { SubtractFrom } from "../../payments/payoff-model.js";
import { payoutNoticeSchema, swapNotice } from "../../payouts/notice-model.js";
import { showPayout } from "../../payouts/notices.js";
import { PAYOUT_FAMILY, type PayoutRequest } from "../../payouts/request-model.js";
import { type RequestRefusal, requestPayout } from "../../payouts/requests.js";
import { within } from "../../util/within.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager, type ManagerDeps } from "../shared/permissions.js";

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
 * A payout request from Slack: the policy, the caps and the service's quote (requestPayout), then
 * its notice written (where the card goes, the balance and the day's total it shows) and the card
 * and the requester's copy posted. A card Slack did not take now is posted by the worker (due now).
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
    },
    now,
  );
  if (result.kind === "refused") return result;
  const { request } = result;
  const channel = await writeNotice(deps, asked, request.id, {
    balance,
    requesterTotal: result.totals.requester,
  });
  const shown = await showPayout(
    { board: deps.payouts.board, slack: async () => client, logger: deps.payouts.logger },
    request.id,
    true,
  );
  if (shown === "owed") await deps.payouts.board.nudge(PAYOUT_FAMILY, request.id, now.getTime());
  return { kind: "requested", request, channel };
}

/**
 * The request's notice on the board: where its card goes (the policy's approval channel, returned),
 * the method's balance and the requester's total today against their cap.
 */
async function writeNotice(
  deps: AskDeps,
  asked: PayoutAsked,
  id: string,
  shown: { balance: Awaited<ReturnType<typeof balanceOf>>; requesterTotal: string },
): Promise<string> {
  const policy = await deps.payouts.policies.get(asked.register.key);
  const channel = policy?.channel ?? "";
  const notice = payoutNoticeSchema.parse({
    v: 1,
    channel,
    requester: asked.user,
    register: asked.register.name,
    several: asked.register.several,
    lang: asked.lang,
    balance: shown.balance,
    today: { total: shown.requesterTotal, cap: policy?.requesterDaily ?? "0" },
    told: [],
  });
  await swapNotice(deps.payouts.board, id, undefined, notice);
  return channel;
}
