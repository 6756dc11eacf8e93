import type { webApi } from "@slack/bolt";
import { payoutRequestModal } from "../../blocks/payout-forms.js";
import { amountUnreadText, repeatedText, requestRefusedMessage } from "../../blocks/payout-replies.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { PAYOUT_REQUEST_TEXT } from "../../i18n/payout-request.js";
import { trustedOf } from "../../payout-recipients/lookup.js";
import type { PayoutPolicy } from "../../payouts/policy.js";
import { claimLine, lineKey, noteLine } from "../../payouts/repeats.js";
import { slackErrorCode } from "../../slack/error.js";
import { readWrittenAmount } from "../../util/rub-amount.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { notARequester } from "../payouts/requester.js";
import { type AskDeps, type AskResult, askPayout } from "../replies/payout-asked.js";
import type { ChosenRegister } from "../workspace/register.js";

/** How long the form waits for the payout methods: the trigger_id lapses 3 s after the command. */
export const REQUEST_METHODS_BUDGET_MS = 1200;

export type RequestCommandDeps = AskDeps & Pick<ListenerDeps, "payments">;

type Asked = {
  team_id: string;
  user_id: string;
  enterprise_id?: string | undefined;
  channel_id: string;
  trigger_id: string;
  chosen: ChosenRegister;
  lang: Lang;
};

/**
 * `/payout AMOUNT METHOD WALLET REASON…`: the amount as written (read by readWrittenAmount: `10,000`
 * is ten thousand, `1500,50` has kopecks), or undefined when the line is not of that shape.
 */
export function parseOneLine(
  text: string,
): { amount: string; method: string; wallet: string; reason: string } | undefined {
  const match = /^\s*(\d[\d.,]*)\s+(\S+)\s+(\S+)\s+(\S[\s\S]*)$/.exec(text);
  if (!match) return undefined;
  const [, amount = "", method = "", wallet = "", reason = ""] = match;
  return { amount, method, wallet, reason: reason.trim() };
}

/** `/payout` with payouts on: the request form, with the register's payout methods the policy allows. */
export async function openRequestForm(
  deps: RequestCommandDeps,
  client: webApi.WebClient,
  asked: Asked,
  policy: PayoutPolicy,
  note: Note,
): Promise<Produced> {
  note({ action: "request_form" });
  const who = { user: asked.user_id, team: asked.team_id, enterpriseId: asked.enterprise_id };
  const refused = await notARequester(
    deps,
    client,
    { ...who, register: asked.chosen.name, lang: asked.lang },
    policy,
  );
  if (refused) return refused;
  // The register's trusted recipients, for the picker (none when unread: the form asks method and wallet).
  const [listed, trusted] = await Promise.all([
    deps.payments.payoffMethodListWithin(asked.chosen.key, REQUEST_METHODS_BUDGET_MS),
    trustedOf(deps.payouts, asked.chosen.key).catch(() => []),
  ]);
  const allowed = (code: string) =>
    policy.methods.length === 0 || policy.methods.some((one) => one.toUpperCase() === code.toUpperCase());
  const methods = Array.isArray(listed) ? listed.filter((method) => allowed(method.code)) : undefined;
  const recipients = trusted.filter((one) => allowed(one.method));
  try {
    await client.views.open({
      trigger_id: asked.trigger_id,
      view: payoutRequestModal({
        register: asked.chosen.name,
        channel: policy.channel,
        methods,
        recipients,
        origin: { t: asked.team_id, c: asked.channel_id, r: asked.chosen.name },
        lang: asked.lang,
      }),
    });
  } catch (error) {
    const text = NOTICES_TEXT[asked.lang];
    const reply = ephemeral(text.formNotOpened("/payout"), text.formNotOpenedFallback("/payout"));
    return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
  }
  const opened = methods?.length ?? "unavailable";
  return { reply: null, log: { outcome: "modal_opened", methods: opened, recipients: recipients.length } };
}

/** `/payout AMOUNT METHOD WALLET REASON…`: the request made at once (the fee on top, from the balance). */
export async function requestInOneLine(
  deps: RequestCommandDeps,
  client: webApi.WebClient,
  asked: Asked,
  note: Note,
): Promise<Produced> {
  note({ action: "request" });
  const t = PAYOUT_REQUEST_TEXT[asked.lang];
  const line = parseOneLine(asked.chosen.rest);
  if (!line) return { reply: ephemeral(t.usage, t.usageFallback), log: { outcome: "usage" } };
  const amount = readWrittenAmount(line.amount);
  if (!amount.ok)
    return {
      reply: ephemeral(
        `:no_entry_sign: ${amountUnreadText(line.amount, amount.why, asked.lang)}`,
        t.refusedFallback,
      ),
      log: { outcome: "payout_refused", refusal: `amount_${amount.why}` },
    };
  // A double Enter (the same line from the same person seconds apart) is requested once.
  const claim = await claimLine(
    deps.payouts,
    lineKey(asked.chosen.key, asked.user_id, asked.chosen.rest.trim()),
    deps.now(),
  );
  if (!claim.first)
    return {
      reply: ephemeral(repeatedText(claim.earlier, asked.lang), t.repeatedFallback),
      log: { outcome: "payout_refused", refusal: "repeated" },
    };
  const result = await askPayout(deps, client, {
    team: asked.team_id,
    user: asked.user_id,
    enterpriseId: asked.enterprise_id,
    register: asked.chosen,
    lang: asked.lang,
    ...line,
    amount: amount.value,
    subtractFrom: "balance",
    reference: "",
  });
  const outcome =
    result.kind === "requested"
      ? { kind: result.kind, id: result.request.id, channel: result.channel }
      : { kind: result.kind };
  await noteLine(deps.payouts, claim, outcome).catch(() => undefined);
  return requestedReply(result, asked, note);
}

/** What the requester is told: where the request went for approval, or why it was refused. */
function requestedReply(result: AskResult, asked: Asked, note: Note): Produced {
  if (result.kind === "refused")
    return {
      reply: requestRefusedMessage(result.refusal, asked.chosen.name, asked.lang),
      log: { outcome: "payout_refused", refusal: result.refusal.kind },
    };
  note({ payout: result.request.id });
  const t = PAYOUT_REQUEST_TEXT[asked.lang];
  const reply = ephemeral(t.requested(`<#${result.channel}>`, result.request.needed), t.requestedFallback);
  return { reply, log: { outcome: "payout_requested" } };
}
