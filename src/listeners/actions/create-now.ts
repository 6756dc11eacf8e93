import { createNowButton } from "../../blocks/button-values.js";
import type { SlackMessage } from "../../blocks/message.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { LINKS_TEXT } from "../../i18n/links.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { auditCreated, type CreatedCardNote, postCreatedInvoiceCard } from "../../invoices/created-card.js";
import { noteCardPlaced } from "../../links/create.js";
import { type CreateNow, createNow } from "../../links/create-now.js";
import { actionContext, pageSender } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import { readButtonValue, StaleButtonError } from "../contexts/button-value.js";
import { RefusalError } from "../contexts/error-reply.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { failedLinkReply } from "../replies/link-failure.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";

type CreateNowDeps = AnswerDeps &
  ManagerDeps &
  Pick<ListenerDeps, "payments" | "links" | "now" | "watches" | "feeds">;

/**
 * Create now, on the note that Kassa is not sure an invoice was made: its creator gets a new
 * invoice with the same fields (once, however many clicks), its card in the channel as from the
 * form; the note is replaced by what happened. Kassa still looks for the first one; found, it is told.
 */
export const createNowButtonPressed =
  (deps: CreateNowDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const { teamId: team, userId: user, context } = press;
    await answer(deps, context, pageSender(respond, false), async (note) => {
      const value = readButtonValue(createNowButton.schema, action);
      const lang = await press.lang();
      if (value.t !== team) throw new RefusalError(reply(NOTICES_TEXT[lang].foreignCard), "foreign_card");
      const register = await registerNamed(deps.stores.registers, team, value.r);
      if (!register) throw new StaleButtonError(action.action_id);
      if (register.several) note({ register: register.name });
      const pressed = await createNow(deps, { registerKey: register.key, ref: value.k, user });
      const creator = {
        teamId: team,
        userId: user,
        registerKey: register.key,
        register: register.several ? register.name : undefined,
      };
      return answerPress(deps, { client, creator, pressed, note, lang });
    });
  };

/** What the press came to, said in the note's place; a new invoice's card posted in its channel. */
async function answerPress(
  deps: CreateNowDeps,
  given: {
    client: ActionArgs["client"];
    creator: { teamId: string; userId: string; registerKey: string; register: string | undefined };
    pressed: CreateNow;
    note: Note;
    lang: Lang;
  },
): Promise<Produced> {
  const { client, creator, pressed, note, lang } = given;
  const t = LINKS_TEXT[lang];
  switch (pressed.kind) {
    case "gone":
      return { reply: reply(t.createNowGone), log: { outcome: "stale_button" } };
    case "not_creator":
      throw new RefusalError(reply(t.createNowNotYours(`<@${pressed.creator}>`)), "not_allowed");
    case "found":
      note({ invoice: pressed.record.invoiceId ?? "" });
      return { reply: reply(t.createNowFound(`\`${pressed.record.invoiceId}\``)), log: { outcome: "ok" } };
    case "already":
      return { reply: reply(t.createNowAlready), log: { outcome: "duplicate" } };
  }
  const { attempt, draft, record } = pressed;
  const where = { ...creator, channelId: record.channel ?? creator.userId };
  if (!attempt.ok) {
    const failed = failedLinkReply(attempt, draft, { t: creator.teamId, r: creator.register }, lang);
    return { reply: failed.message, log: failed.outcome };
  }
  note({ invoice: attempt.created.id });
  auditCreated(deps, where, attempt.created, draft);
  const delivered: CreatedCardNote = { invoice: attempt.created.id };
  const asked = { ...draft, customer: record.customer };
  try {
    await postCreatedInvoiceCard(deps, client, where, attempt.created, asked, delivered);
    await noteCardPlaced(deps, creator.registerKey, attempt.ref, delivered);
  } finally {
    note(delivered);
  }
  return { reply: reply(t.createdNow(`\`${attempt.created.id}\``)), log: { outcome: "created" } };
}

function reply(text: string): SlackMessage {
  return ephemeral(text, text.replace(/[`*]/g, ""));
}
