import { linkButton } from "../../blocks/button-values.js";
import { copiedLinkText, type ReminderFacts, stoppedReminderMessage } from "../../blocks/link-reminder.js";
import type { SlackMessage } from "../../blocks/message.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { LINK_REMINDERS_TEXT } from "../../i18n/link-reminders.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import type { LinkRecord } from "../../links/record.js";
import { stopReminding } from "../../links/stop-reminding.js";
import { actionContext } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { readerZone } from "../replies/invoice-summary.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

// A payment link's reminder (issue 51): Copy link answers its presser privately with the link in a
// block of code to copy; Stop reminding turns the link's reminders off (and its schedule's) and the
// reminder says who stopped it. Re-issue is the re-issue's own handler.

type LinkPressDeps = AnswerDeps & ManagerDeps & Pick<ListenerDeps, "links" | "serviceTimeZone" | "now">;

/** The press read: the link's register and ref, checked against the presser's workspace. */
async function pressedLink(deps: LinkPressDeps, args: ActionArgs, team: string, lang: Lang) {
  const value = readButtonValue(linkButton.schema, args.action);
  if (value.t !== team) throw new RefusalError(reply(NOTICES_TEXT[lang].foreignCard), "foreign_card");
  const register = await registerNamed(deps.stores.registers, team, value.r);
  if (!register) throw new StaleButtonError(args.action.action_id);
  return { registerKey: register.key, ref: value.k };
}

/** Copy link: the link's URL, privately, with how long it works (or that it is paid, or gone). */
export const copyLinkPressed =
  (deps: LinkPressDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, respond, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const send = (message: SlackMessage) => respond({ ...message, replace_original: false });
    await answer(deps, press.context, send, async (note): Promise<Produced> => {
      const lang = await press.lang();
      const { registerKey, ref } = await pressedLink(deps, args, press.teamId, lang);
      const record = await deps.links.read(registerKey, ref);
      if (!record?.invoiceId)
        return { reply: reply(LINK_REMINDERS_TEXT[lang].linkGone(ref)), log: { outcome: "stale_button" } };
      note({ invoice: record.invoiceId });
      const zone = (await readerZone(client, press.userId)) ?? deps.serviceTimeZone;
      const text = copiedLinkText(
        {
          invoiceId: record.invoiceId,
          url: record.url,
          paid: record.outcome === "paid",
          expiresAt: record.expiresAt ?? record.createdAt,
          zone,
        },
        lang,
      );
      return { reply: reply(text), log: { outcome: "ok" } };
    });
  };

/** Stop reminding: the reminder redrawn without its buttons, saying who stopped it. */
export const stopRemindingPressed =
  (deps: LinkPressDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, respond, client, body } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const send = (message: SlackMessage, { failed }: { failed: boolean }) =>
      respond({ ...message, replace_original: !failed && message.response_type !== "ephemeral" });
    await answer(deps, press.context, send, async (note): Promise<Produced> => {
      const lang = await press.lang();
      const { registerKey, ref } = await pressedLink(deps, args, press.teamId, lang);
      const stopped = await stopReminding(deps.links, registerKey, ref, {
        by: press.userId,
        at: deps.now().getTime(),
      });
      if (!stopped?.record.invoiceId)
        return { reply: reply(LINK_REMINDERS_TEXT[lang].linkGone(ref)), log: { outcome: "stale_button" } };
      note({ invoice: stopped.record.invoiceId });
      const zone = (await readerZone(client, stopped.record.creator)) ?? deps.serviceTimeZone;
      const channel = body.channel?.id ?? "";
      const facts = factsOf(stopped.record, stopped.record.invoiceId, { zone, lang, channel });
      return {
        reply: stoppedReminderMessage(facts, press.userId, stopped.schedule),
        log: { outcome: "ok" },
      };
    });
  };

/** The reminder's facts again from the record; `here` when it sits in a channel, not in someone's messages. */
function factsOf(
  record: LinkRecord,
  invoiceId: string,
  where: { zone: string; lang: Lang; channel: string },
): ReminderFacts {
  const inChannel = /^[CG]/.test(where.channel);
  const workflow = !/^[UW]/.test(record.creator);
  return {
    ...record,
    invoiceId,
    expiresAt: record.expiresAt ?? record.createdAt,
    zone: where.zone,
    lang: where.lang,
    here: inChannel
      ? { why: workflow ? "workflow" : "deactivated", creator: workflow ? "" : `<@${record.creator}>` }
      : undefined,
  };
}

function reply(text: string): SlackMessage {
  return ephemeral(text, text.replace(/[`*]/g, ""));
}
