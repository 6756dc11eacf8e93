import { createHash } from "node:crypto";
import type { webApi } from "@slack/bolt";
import { fieldError } from "../../blocks/form.js";
import {
  CREATE_FIELDS,
  CREATE_INVOICE_VIEW,
  refusalText,
  validateCreateInput,
} from "../../blocks/invoice-create.js";
import type { RepeatInitial } from "../../blocks/invoice-repeat.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import {
  auditCreated,
  type CreatedCardNote,
  type Creator,
  postCreatedInvoiceCard,
  tellCreator,
} from "../../invoices/created-card.js";
import type { TellDelivery } from "../../invoices/deps.js";
import { createLink, type LinkAsker, type LinkAttempt, noteCardPlaced } from "../../links/create.js";
import { ServiceError } from "../../payments/errors.js";
import type { InvoiceDraft } from "../../payments/model.js";
import { within } from "../../util/within.js";
import { handledSubmission, type Noted, type ViewAnswer } from "../contexts/handled.js";
import type { Note, Outcome, ViewOutcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import { failedLinkReply } from "../replies/link-failure.js";
import type { ViewArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";
import { mayCreate } from "../workspace/settings.js";
import { formSchema, originSchema } from "./create-invoice-form.js";
import { checkedRepeat, makeSchedule } from "./create-schedule.js";

/**
 * How long the submission waits for the service before closing the form: Slack wants the answer
 * within 3 s, and a refusal that comes in time is shown next to the amount.
 */
export const INLINE_CREATE_MS = 2500;
/** A submission is remembered this long, so a redelivery or a second click creates nothing more. */
const SUBMISSION_MEMORY_MS = 60 * 60 * 1000;

type CreateDeps = ManagerDeps &
  Pick<ListenerDeps, "claimOnce" | "now" | "payments" | "watches" | "inFlight" | "audit" | "links"> &
  Pick<ListenerDeps, "schedules" | "serviceTimeZone">;

/**
 * The create modal's submit: validate, check the submitter again (a submission is a request of its
 * own), claim the submission so it creates one invoice however often it arrives, create the invoice,
 * then post its card (read back with invoice/info: the service's own view) where the command was typed.
 */
export const createInvoiceSubmission =
  (deps: CreateDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const started = performance.now();
    const { team: teamId, user, lang } = await viewContext(deps, body);
    const origin = { view: CREATE_INVOICE_VIEW, team: teamId, user, field: CREATE_FIELDS.amount, lang };
    await handledSubmission(deps, origin, ack, async (note, reply) => {
      const submission: Submission = { deps, client, view, body, teamId, lang, note, reply };
      const accepted = await acceptedForm(submission);
      if ("outcome" in accepted) return accepted;
      const refused =
        (await refusedCreator(submission, accepted.creator)) ??
        (await claimedBefore(submission, {
          ...accepted.draft,
          customer: accepted.customer,
          remind: accepted.remind,
        }));
      if (refused) return refused;
      const { repeat } = accepted;
      if (repeat) return makeSchedule(deps, client, { ...accepted, repeat, lang, reply });
      return createAndPost(submission, accepted, started);
    });
  };

/** One submission of the form being handled: what Slack sent, and how to answer it. */
type Submission = {
  deps: CreateDeps;
  client: webApi.WebClient;
  view: ViewArgs["view"];
  body: ViewArgs["body"];
  teamId: string;
  lang: Lang;
  note: Note<Noted>;
  reply: (answer?: ViewAnswer) => Promise<void>;
};
/** `customer`: who it is for, as the form named them (Kassa keeps it: the card and the record show it). */
type Accepted = {
  creator: Creator & { registerKey: string };
  draft: InvoiceDraft;
  registerKey: string;
  customer?: string | undefined;
  /** Every week or Every month chosen: a schedule, not an invoice now (issue 51). */
  repeat?: RepeatInitial | undefined;
  /** Minutes before expiry to remind the creator (none: off). */
  remind?: number | undefined;
};

/** The form read and checked: the invoice to create and who creates it where, or why not. */
async function acceptedForm({
  deps,
  view,
  body,
  teamId,
  lang,
  reply,
}: Submission): Promise<Accepted | Outcome> {
  const form = readSubmission(view, teamId, { origin: originSchema, values: formSchema });
  // A register renamed or removed since the form opened: its invoice goes nowhere else.
  const register = form ? await registerNamed(deps.stores.registers, teamId, form.origin.r) : undefined;
  if (!form || !register) {
    await reply(fieldError(CREATE_FIELDS.amount, NOTICES_TEXT[lang].formOutdatedCreate));
    return { outcome: "bad_form" };
  }
  const checked = validateCreateInput(form.values, lang);
  const repeat = checkedRepeat(deps, view.state.values, lang);
  if (!checked.ok || !repeat.ok) {
    const errors = { ...(checked.ok ? {} : checked.errors), ...(repeat.ok ? {} : repeat.errors) };
    await reply({ response_action: "errors", errors });
    return { outcome: "invalid", fields: Object.keys(errors) };
  }
  const creator = {
    teamId,
    userId: body.user.id,
    channelId: form.origin.c,
    registerKey: register.key,
    register: register.several ? register.name : undefined,
  };
  const { draft, customer, remind } = checked;
  return { creator, draft, registerKey: register.key, customer, remind, repeat: repeat.repeat };
}

/** The submitter checked again (a submission is a request of its own); undefined: they may create. */
async function refusedCreator(submission: Submission, creator: Creator): Promise<Outcome | undefined> {
  const { deps, client, body, lang, note, reply } = submission;
  const permission = await mayCreate(deps, client, { ...creator, enterpriseId: body.enterprise?.id });
  note({ creator: permission.why });
  if (permission.allowed) return undefined;
  await reply(fieldError(CREATE_FIELDS.amount, NOTICES_TEXT[lang].createNotAllowedField));
  return { outcome: "not_allowed" };
}

/**
 * One invoice per submission: Slack redelivers a submission it got no answer to, and a double
 * click sends it twice. The same form with the same values is the same submission. Undefined: the first.
 */
async function claimedBefore(submission: Submission, draft: object): Promise<Outcome | undefined> {
  const { deps, view, teamId, lang, reply } = submission;
  const digest = createHash("sha256").update(JSON.stringify(draft)).digest("base64url").slice(0, 22);
  let first: boolean;
  try {
    first = await deps.claimOnce(`create:${teamId}:${view.id}:${digest}`, SUBMISSION_MEMORY_MS);
  } catch (error) {
    // Without the store Kassa cannot promise "once": create nothing.
    await reply(fieldError(CREATE_FIELDS.amount, NOTICES_TEXT[lang].createStoreDown));
    return { outcome: "store_unavailable", err: error };
  }
  if (first) return undefined;
  await reply(fieldError(CREATE_FIELDS.amount, NOTICES_TEXT[lang].createDuplicate));
  return { outcome: "duplicate" };
}

/**
 * Creates the invoice: a refusal in time keeps the form open next to the amount; otherwise the form
 * closes and the card is posted (or the creator told privately why not).
 */
async function createAndPost(submission: Submission, accepted: Accepted, started: number): Promise<Outcome> {
  const { deps, client, lang, note, reply } = submission;
  const { creator, draft, customer, remind } = accepted;
  const asker: LinkAsker = {
    team: creator.teamId,
    register: creator.register,
    customer,
    remind,
    creator: creator.userId,
    channel: creator.channelId,
    via: "form",
  };
  const attempt = createLink(deps, accepted.registerKey, draft, asker);
  const quick = await within(attempt, INLINE_CREATE_MS - (performance.now() - started));
  if (quick && !quick.ok && quick.error instanceof ServiceError) {
    // Refused in time: said next to the amount, the form kept open with what was typed.
    await reply(fieldError(CREATE_FIELDS.amount, refusalText(quick.error.messages, lang)));
    return { outcome: "refused", inline: true, serviceErrors: quick.error.messages };
  }
  if (quick && !quick.ok && quick.status === "not_recorded") {
    // Without the link's record nothing is sent: the form stays open to try again.
    await reply(fieldError(CREATE_FIELDS.amount, NOTICES_TEXT[lang].createStoreDown));
    return { outcome: "store_unavailable", err: quick.error };
  }
  await reply();
  note({ slow: quick === null });
  const result = quick ?? (await attempt);
  if (!result.ok) return tellFailure(client, creator, draft, result, note, lang);
  auditCreated(deps, creator, result.created, draft);
  const delivered: CreatedCardNote = { invoice: result.created.id };
  try {
    await postCreatedInvoiceCard(deps, client, creator, result.created, { ...draft, customer }, delivered);
    await noteCardPlaced(deps, accepted.registerKey, result.ref, delivered);
    return { outcome: "created" };
  } catch (error) {
    return { outcome: "card_failed", err: error };
  } finally {
    note(delivered);
  }
}

/** The form was closed and the invoice not created (or not surely): the creator is told privately, and what now. */
async function tellFailure(
  client: webApi.WebClient,
  creator: Creator,
  draft: InvoiceDraft,
  attempt: Extract<LinkAttempt, { ok: false }>,
  note: Note<Noted>,
  lang: Lang,
): Promise<ViewOutcome> {
  const link = { t: creator.teamId, r: creator.register };
  const { message, outcome } = failedLinkReply(attempt, draft, link, lang);
  const told: TellDelivery = {};
  await tellCreator(client, creator, message, told)
    .catch((tellError: unknown) => note({ tellError: String(tellError) }))
    .finally(() => note(told));
  return outcome;
}
