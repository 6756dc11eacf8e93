import type { webApi } from "@slack/bolt";
import { recordAct } from "../audit/index.js";
import { formatMoney } from "../blocks/format.js";
import { buildInvoiceMessage } from "../blocks/invoice.js";
import type { Lang } from "../i18n/lang.js";
import { STEPS_TEXT } from "../i18n/steps.js";
import { auditCreated, type CreatedCardNote } from "../invoices/created-card.js";
import { deliverInvoiceCard } from "../invoices/live-card.js";
import { chosenMethod } from "../invoices/method.js";
import { createLink, noteCardPlaced } from "../links/create.js";
import { NotConnectedError } from "../payments/errors.js";
import type { CreatedInvoice, Invoice, InvoiceDraft } from "../payments/model.js";
import { isChannelGone, slackFailureOfCode } from "../slack/failures.js";
import { MAIN_REGISTER } from "../store/registers.js";
import { workflowsMayCreate } from "../store/settings.js";
import { WORKFLOW_ASKER } from "../watch/model.js";
import { type CheckedInputs, checkInputs } from "./create-inputs.js";
import type { StepArgs, StepDeps, StepOutputs, StepResult } from "./deps.js";
import { createFailure } from "./failures.js";
import { type CreateInputs, createInputsSchema, STEP_IDS, unreadableInputs } from "./inputs.js";
import { stepRegister } from "./register.js";
import { runStep, type StepRun } from "./run.js";

/**
 * Create invoice: the same checks as `/invoice new` (the amount, currency and minutes as its form
 * checks them; the workspace's permission; a connected cash register), one invoice per run however
 * often Slack delivers it, then a live card where the workflow asks for one, and the outputs.
 */
export const createInvoiceStep =
  (deps: StepDeps) =>
  async (args: StepArgs): Promise<void> =>
    runStep(
      deps,
      args,
      {
        step: STEP_IDS.createInvoice,
        withoutStore: "refuse",
        internal: (lang, reference) => STEPS_TEXT[lang].internalCreate(reference),
        storeDown: (lang) => STEPS_TEXT[lang].storeDown,
      },
      (run) => createInvoice(deps, args.client, args.inputs, run),
    );

async function createInvoice(
  deps: StepDeps,
  client: webApi.WebClient,
  given: unknown,
  run: StepRun,
): Promise<StepResult> {
  const t = STEPS_TEXT[run.lang];
  const parsed = createInputsSchema.safeParse(given);
  if (!parsed.success) {
    const names = unreadableInputs(parsed.error);
    return { done: false, error: t.badInputs(t.unreadable(names.join(", "))), reason: "unreadable_inputs" };
  }
  const inputs = parsed.data;
  const checked = checkInputs(inputs, run.lang);
  if (!checked.ok) return { done: false, error: t.badInputs(checked.problems), reason: "invalid_inputs" };
  if (!workflowsMayCreate(await deps.stores.settings.get(run.teamId)))
    return { done: false, error: t.notAllowed, reason: "not_allowed" };
  const register = await stepRegister(deps.stores, run.teamId, inputs.register);
  if (!register)
    return { done: false, error: t.unknownRegister(inputs.register ?? ""), reason: "unknown_register" };
  const where = {
    teamId: run.teamId,
    userId: inputs.notify_user ?? WORKFLOW_ASKER,
    channelId: inputs.channel_id ?? "",
    registerKey: register.key,
  };
  const made = await makeLink(deps, { run, register, where, inputs }, checked);
  if (!made.ok) return made.failure;
  const { created } = made;
  auditCreated(deps, where, created, checked.draft);
  await recordAct(deps.audit, deps.logger, {
    team: run.teamId,
    ...(register.name === MAIN_REGISTER ? {} : { register: register.name }),
    actor: `workflow:${run.executionId}`.slice(0, 90),
    action: "invoice.created",
    object: `invoice ${created.id}`,
    after: { amount: checked.draft.amount, currency: checked.draft.currency },
    outcome: "done",
  });
  const note: CreatedCardNote = { invoice: created.id };
  // The service's own view of the new invoice (the amount as it set it); the run succeeds without
  // it: the invoice exists, and failing now would invite a second one.
  const invoice = await deps.payments.invoice(register.key, created.id).catch((error: unknown) => {
    note.readError = error instanceof Error ? error.message : String(error);
    return undefined;
  });
  let problem: CardProblem | null = null;
  if (inputs.channel_id) {
    problem = invoice
      ? await postCard(deps, client, where, invoice, checked, run.lang, note).catch((error: unknown) => {
          note.postError = error instanceof Error ? error.message : String(error);
          return "failed" as const;
        })
      : "unreadable";
    await noteCardPlaced(deps, register.key, made.ref, note);
  }
  // A card that did not go out is said in the outputs, not by failing the run: the invoice exists,
  // and a failed run would invite a second one.
  const card: StepOutputs = { card_posted: Boolean(inputs.channel_id) && problem === null };
  if (problem) card.card_problem = cardProblemText(problem, run.lang);
  return {
    done: true,
    outputs: { ...createdOutputs(created, invoice, run.lang), ...card },
    log: { ...note },
  };
}

/**
 * Why the card is not in the workflow's channel: what Slack's refusal means (src/slack/failures.ts,
 * where every Slack code is known), or the invoice not read back.
 */
type CardProblem = "not_in_channel" | "archived" | "unreadable" | "failed";

function cardProblemText(problem: CardProblem, lang: Lang): string {
  const t = STEPS_TEXT[lang];
  return t.cardProblem(t.cardWhy[problem]);
}

/**
 * The link recorded and created (links/create.ts): the register connected and, for an e-mail, on
 * v3; the run's invoice, or why there is none (or, the answer lost, that it may exist).
 */
async function makeLink(
  deps: StepDeps,
  asked: {
    run: StepRun;
    register: { key: string; name: string };
    where: { userId: string; channelId: string };
    inputs: CreateInputs;
  },
  checked: CheckedInputs,
): Promise<{ ok: true; created: CreatedInvoice; ref: string } | { ok: false; failure: StepFailure }> {
  const { run, register, where } = asked;
  try {
    if (!(await deps.stores.credentials.get(register.key))) throw new NotConnectedError(register.key);
    if (checked.draft.payerDetails && (await deps.payments.register(register.key)).apiVersion !== "v3")
      return {
        ok: false,
        failure: { done: false, error: STEPS_TEXT[run.lang].emailNeedsV3, reason: "email_v2" },
      };
  } catch (error) {
    return { ok: false, failure: createFailure(error, run.lang) };
  }
  const attempt = await createLink(deps, register.key, checked.draft, {
    team: run.teamId,
    ...(register.name === MAIN_REGISTER ? {} : { register: register.name }),
    customer: checked.customer,
    creator: where.userId,
    channel: where.channelId || undefined,
    via: "step",
    run: run.executionId.slice(0, 80),
    ...(checked.remind ? { remind: checked.remind } : {}),
  });
  if (attempt.ok) return { ok: true, created: attempt.created, ref: attempt.ref };
  if (attempt.status === "not_recorded")
    return {
      ok: false,
      failure: { done: false, error: STEPS_TEXT[run.lang].storeDown, reason: "store_unavailable" },
    };
  return { ok: false, failure: createFailure(attempt.error, run.lang) };
}

type StepFailure = Extract<StepResult, { done: false }>;

/** The card of the new invoice in the workflow's channel, kept current until paid (a live card). */
async function postCard(
  deps: StepDeps,
  client: webApi.WebClient,
  where: { teamId: string; userId: string; channelId: string },
  invoice: Invoice,
  asked: { draft: InvoiceDraft; customer?: string | undefined },
  lang: Lang,
  note: CreatedCardNote,
): Promise<CardProblem | null> {
  // v2 converts every amount to roubles: the card keeps saying what the workflow asked for.
  const { draft, customer } = asked;
  const entered = { value: draft.amount, currency: draft.currency };
  const card = buildInvoiceMessage(invoice, {
    now: deps.now(),
    teamId: where.teamId,
    visibility: "channel",
    method: await chosenMethod(deps, where.teamId, invoice),
    entered,
    lang,
    customer,
  });
  const left = await deliverInvoiceCard(deps, client, where, invoice, card, "channel", note, {
    entered,
    lang,
    customer,
  });
  // Not posted (the channel gone or archived, Kassa not in it): there is no response_url to fall
  // back on; the outputs say so, and the log line has Slack's refusal.
  if (!left) return null;
  delete note.posted;
  const failure = slackFailureOfCode(note.postError);
  return isChannelGone(failure) ? failure : "failed";
}

/** The outputs: the id and link always; the amount as the service set it when it could be read. */
function createdOutputs(created: CreatedInvoice, invoice: Invoice | undefined, lang: Lang): StepOutputs {
  const amount = invoice?.amounts.amount;
  return {
    invoice_id: created.id,
    payment_url: invoice?.url ?? created.url,
    ...(amount ? { amount: amount.value } : {}),
    ...(amount?.currency ? { currency: amount.currency, amount_text: formatMoney(amount, lang) } : {}),
  };
}
