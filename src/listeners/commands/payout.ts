import type { webApi } from "@slack/bolt";
import { notAllowedMessage } from "../../blocks/admin.js";
import { payoutPolicyMessage } from "../../blocks/payout-policy.js";
import { noSecret2Message, payoutHelpMessage, payoutSetupModal } from "../../blocks/payout-setup.js";
import { ephemeral } from "../../blocks/replies.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { NotConnectedError } from "../../payments/errors.js";
import { payoutsOn } from "../../payouts/policy.js";
import { versionOf } from "../../payouts/policy-store.js";
import { POLICY_FIELDS } from "../../payouts/set-policy.js";
import { slackErrorCode } from "../../slack/error.js";
import { MAIN_REGISTER } from "../../store/registers.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { commandContext } from "../contexts/command-context.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { parseRefundLine, refundFromCommand } from "../payouts/refund.js";
import type { CommandArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, withRegisterFooter } from "../workspace/register.js";
import { BATCH_COMMAND, openBatchForm } from "./payout-batch.js";
import { RECIPIENT_COMMAND, type RecipientCommandDeps, recipientCommand } from "./payout-recipients.js";
import { openRequestForm, requestInOneLine } from "./payout-request.js";

export const PAYOUT_COMMAND = "/payout";

/** How long the form waits for the payout method list: the trigger_id lapses 3 s after the command. */
export const PAYOUT_METHODS_BUDGET_MS = 700;

type PayoutDeps = AnswerDeps &
  ManagerDeps &
  RecipientCommandDeps &
  Pick<ListenerDeps, "payments" | "payoutPolicies">;

/**
 * `/payout [REGISTER] setup`: the register's payout policy form, for admins. `/payout` alone opens
 * the request form where payouts are on (else the help: what exists, and the policy in a line);
 * `/payout policy` shows the policy in full (its rules and approval limits too);
 * `/payout AMOUNT METHOD WALLET REASON…` requests in one line; `/payout help` is the help.
 */
export const payoutCommand =
  (deps: PayoutDeps) =>
  async ({ command, ack, respond, client, context: request }: CommandArgs): Promise<void> => {
    await ack();
    const context = commandContext(deps, client, PAYOUT_COMMAND, command, request);
    await answer(deps, context, respond, async (note) => {
      const chosen = await context.register(note);
      const lang = await context.lang();
      const rest = chosen.rest.trim();
      if (/^setup$/i.test(rest)) return payoutSetup(deps, client, { ...command, chosen, lang }, note);
      const policy = await deps.payoutPolicies.get(chosen.key);
      const asked = { ...command, chosen, lang };
      const footed = async (produced: Promise<Produced>) => {
        const { reply, log } = await produced;
        return { reply: reply && withRegisterFooter(reply, chosen, lang), log };
      };
      const refund = parseRefundLine(rest);
      if (refund) {
        const who = { team: command.team_id, user: command.user_id, enterpriseId: command.enterprise_id };
        const where = { channel: command.channel_id, triggerId: command.trigger_id, register: chosen, lang };
        return footed(refundFromCommand(deps, client, { ...who, ...where }, refund, note));
      }
      if (/^(policy|правила)$/i.test(rest)) {
        const reply = payoutPolicyMessage(chosen.name, policy, POLICY_FIELDS, lang);
        return { reply: withRegisterFooter(reply, chosen, lang), log: { outcome: "help" } };
      }
      if (BATCH_COMMAND.test(rest)) return openBatchForm(deps, client, asked, policy, note);
      if (RECIPIENT_COMMAND.test(rest)) return footed(recipientCommand(deps, client, asked, note));
      if (rest !== "" && !/^help$/i.test(rest)) return footed(requestInOneLine(deps, client, asked, note));
      if (rest === "" && payoutsOn(policy)) return openRequestForm(deps, client, asked, policy, note);
      const reply = withRegisterFooter(payoutHelpMessage(chosen.name, policy, lang), chosen, lang);
      return { reply, log: { outcome: "help" } };
    });
  };

type SetupAsked = {
  team_id: string;
  user_id: string;
  enterprise_id?: string | undefined;
  channel_id: string;
  trigger_id: string;
  chosen: ChosenRegister;
  lang: "en" | "ru";
};

/** The setup form for an admin of a register with Secret 2; otherwise who can, or what is missing. */
async function payoutSetup(
  deps: PayoutDeps,
  client: webApi.WebClient,
  asked: SetupAsked,
  note: Note,
): Promise<Produced> {
  note({ action: "setup" });
  const { chosen, lang } = asked;
  const manager = await checkManager(deps, client, {
    userId: asked.user_id,
    teamId: asked.team_id,
    enterpriseId: asked.enterprise_id,
  });
  note({ manager: manager.why });
  if (!manager.allowed) return { reply: notAllowedMessage("payouts", lang), log: { outcome: "not_allowed" } };
  const connection = await deps.stores.credentials.get(chosen.key);
  if (!connection) throw new NotConnectedError(chosen.key);
  if (!connection.salt) {
    const connect = chosen.name === MAIN_REGISTER ? "/invoice connect" : `/invoice ${chosen.name} connect`;
    return { reply: noSecret2Message(chosen.name, connect, lang), log: { outcome: "no_secret2" } };
  }
  const [read, methods] = await Promise.all([
    deps.payoutPolicies.read(chosen.key),
    deps.payments.payoffMethodListWithin(chosen.key, PAYOUT_METHODS_BUDGET_MS),
  ]);
  const listed = Array.isArray(methods) ? methods.length : "unavailable";
  try {
    await client.views.open({
      trigger_id: asked.trigger_id,
      view: payoutSetupModal({
        register: chosen.name,
        policy: read.kind === "set" ? read.policy : undefined,
        methods,
        origin: { t: asked.team_id, r: chosen.name, v: versionOf(read), c: asked.channel_id },
        lang,
      }),
    });
  } catch (error) {
    const reply = ephemeral(
      NOTICES_TEXT[lang].formNotOpened("/payout setup"),
      NOTICES_TEXT[lang].formNotOpenedFallback("/payout setup"),
    );
    return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error), methods: listed } };
  }
  return { reply: null, log: { outcome: "modal_opened", methods: listed } };
}
