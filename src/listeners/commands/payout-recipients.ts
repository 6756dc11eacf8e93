import type { webApi } from "@slack/bolt";
import { escapeMrkdwn } from "../../blocks/mrkdwn.js";
import { recipientAddModal, recipientRemoveAsk, recipientsMessage } from "../../blocks/payout-recipients.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { PAYOUT_RECIPIENTS_TEXT } from "../../i18n/payout-recipients.js";
import { recipientsOf, splitLabel, trustedOf } from "../../payout-recipients/lookup.js";
import { sameLabel } from "../../payout-recipients/model.js";
import { payoutsOn } from "../../payouts/policy.js";
import { slackErrorCode } from "../../slack/error.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";
import { type RequestCommandDeps, requestInOneLine } from "./payout-request.js";

// `/payout recipients`, `/payout recipient add`, `/payout recipient remove LABEL` and
// `/payout to LABEL AMOUNT REASON…`: a register's trusted recipients (src/payout-recipients).

/** How long the add form waits for the payout methods: the trigger_id lapses 3 s after the command. */
const METHODS_BUDGET_MS = 1200;

export type RecipientCommandDeps = RequestCommandDeps &
  Pick<ListenerDeps, "payoutPolicies" | "defaultApiVersion" | "stores">;

type Asked = {
  team_id: string;
  user_id: string;
  enterprise_id?: string | undefined;
  channel_id: string;
  trigger_id: string;
  chosen: ChosenRegister;
  lang: Lang;
};

/** Whether the command's text is one of the recipients' commands. */
export const RECIPIENT_COMMAND = /^(?:recipients|recipient(?:\s[\s\S]*)?|to(?:\s[\s\S]*)?)$/i;

export async function recipientCommand(
  deps: RecipientCommandDeps,
  client: webApi.WebClient,
  asked: Asked,
  note: Note,
): Promise<Produced> {
  const rest = asked.chosen.rest.trim();
  const t = PAYOUT_RECIPIENTS_TEXT[asked.lang];
  if (/^recipients$/i.test(rest)) return listRecipients(deps, asked, note);
  if (/^recipient\s+add$/i.test(rest)) return openAddForm(deps, client, asked, note);
  const remove = /^recipient\s+remove\s+([\s\S]+)$/i.exec(rest);
  if (remove?.[1]) return askRemove(deps, client, asked, remove[1], note);
  const to = /^to\s+([\s\S]+)$/i.exec(rest);
  if (to?.[1]) return payTo(deps, client, asked, to[1], note);
  const usage = `${t.toUsage}\n${t.listHowTo}`;
  return { reply: ephemeral(usage, t.fallback), log: { outcome: "usage" } };
}

async function listRecipients(deps: RecipientCommandDeps, asked: Asked, note: Note): Promise<Produced> {
  note({ action: "recipients" });
  const recipients = await recipientsOf(deps.payouts, asked.chosen.key);
  return {
    reply: recipientsMessage(recipients, asked.chosen.name, asked.lang),
    log: { outcome: "recipients_listed", count: recipients.length },
  };
}

async function openAddForm(
  deps: RecipientCommandDeps,
  client: webApi.WebClient,
  asked: Asked,
  note: Note,
): Promise<Produced> {
  note({ action: "recipient_add" });
  const t = PAYOUT_RECIPIENTS_TEXT[asked.lang];
  const policy = await deps.payoutPolicies.get(asked.chosen.key);
  if (!payoutsOn(policy))
    return {
      reply: ephemeral(t.refusals.payouts_off(""), t.fallback),
      log: { outcome: "recipient_refused", refusal: "payouts_off", act: "add", recorded: false },
    };
  const [listed, connection] = await Promise.all([
    deps.payments.payoffMethodListWithin(asked.chosen.key, METHODS_BUDGET_MS),
    deps.stores.credentials.get(asked.chosen.key),
  ]);
  const allowed = (code: string) =>
    policy.methods.length === 0 || policy.methods.some((one) => one.toUpperCase() === code.toUpperCase());
  const methods = Array.isArray(listed) ? listed.filter((method) => allowed(method.code)) : undefined;
  const version = connection?.account.apiVersion ?? deps.defaultApiVersion;
  try {
    await client.views.open({
      trigger_id: asked.trigger_id,
      view: recipientAddModal({
        register: asked.chosen.name,
        channel: policy.channel,
        methods,
        v3: version === "v3",
        origin: { t: asked.team_id, c: asked.channel_id, r: asked.chosen.name },
        lang: asked.lang,
      }),
    });
  } catch (error) {
    const text = NOTICES_TEXT[asked.lang];
    const command = "/payout recipient add";
    const reply = ephemeral(text.formNotOpened(command), text.formNotOpenedFallback(command));
    return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
  }
  return { reply: null, log: { outcome: "modal_opened" } };
}

/** `/payout recipient remove LABEL`: admins only; the question with Remove (the removal is the button's). */
async function askRemove(
  deps: RecipientCommandDeps,
  client: webApi.WebClient,
  asked: Asked,
  label: string,
  note: Note,
): Promise<Produced> {
  note({ action: "recipient_remove" });
  const t = PAYOUT_RECIPIENTS_TEXT[asked.lang];
  const who = { userId: asked.user_id, teamId: asked.team_id, enterpriseId: asked.enterprise_id };
  const manager = await checkManager(deps, client, who);
  note({ manager: manager.why });
  if (!manager.allowed)
    return {
      reply: ephemeral(t.refusals.not_admin(""), t.fallback),
      log: { outcome: "recipient_refused", refusal: "not_admin", act: "remove", recorded: false },
    };
  const all = await recipientsOf(deps.payouts, asked.chosen.key);
  const found = all.find((one) => sameLabel(one.label, label));
  if (!found)
    return {
      reply: ephemeral(t.refusals.not_found(""), t.fallback),
      log: { outcome: "recipient_refused", refusal: "not_found", act: "remove", recorded: false },
    };
  return {
    reply: recipientRemoveAsk(found, asked.chosen.name, asked.lang),
    log: { outcome: "remove_asked" },
  };
}

/** `/payout to LABEL AMOUNT REASON…`: the one-line request with the trusted recipient's method and wallet. */
async function payTo(
  deps: RecipientCommandDeps,
  client: webApi.WebClient,
  asked: Asked,
  text: string,
  note: Note,
): Promise<Produced> {
  note({ action: "request_to" });
  const t = PAYOUT_RECIPIENTS_TEXT[asked.lang];
  const trusted = await trustedOf(deps.payouts, asked.chosen.key);
  const split = splitLabel(trusted, text);
  if (!split) {
    const known = trusted.map((one) => `*${escapeMrkdwn(one.label)}*`).join(", ") || t.noneTrusted;
    const label = escapeMrkdwn(text.trim().split(/\s+/)[0] ?? "");
    return {
      reply: ephemeral(t.unknownLabel(`*${label}*`, known), t.fallback),
      log: { outcome: "payout_refused", refusal: "unknown_recipient" },
    };
  }
  const line = /^(\d[\d.,]*)\s+(\S[\s\S]*)$/.exec(split.rest);
  if (!line?.[1] || !line[2]) return { reply: ephemeral(t.toUsage, t.fallback), log: { outcome: "usage" } };
  const { method, wallet } = split.recipient;
  const rest = `${line[1]} ${method} ${wallet} ${line[2]}`;
  return requestInOneLine(deps, client, { ...asked, chosen: { ...asked.chosen, rest } }, note);
}
