import { createHash } from "node:crypto";
import { z } from "zod";
import {
  CREATE_FIELDS,
  CREATE_INVOICE_VIEW,
  createFailedMessage,
  createNotSentMessage,
  createRefusedMessage,
  refusalText,
  validateCreateInput,
} from "../../blocks/invoice-create.js";
import { WHO_MAY_MANAGE } from "../../blocks/replies.js";
import {
  auditCreated,
  type CreatedCardNote,
  type Creator,
  postCreatedInvoiceCard,
  tellCreator,
} from "../../invoices/created-card.js";
import { newReference } from "../../logger.js";
import type { CreatedInvoice } from "../../payments/client.js";
import { BusyError, NotConnectedError, PaymentsError, ServiceError } from "../../payments/errors.js";
import type { ListenerDeps } from "../deps.js";
import { mayCreate } from "../manage.js";
import type { ManagerDeps } from "../permissions.js";
import type { ViewArgs } from "../router.js";
import { teamIdOf } from "../team.js";
import { parseJsonOrUndefined, selectValue, textValue } from "./form.js";

/**
 * How long the submission waits for the service before closing the form: Slack wants the answer
 * within 3 s, and a refusal that comes in time is shown next to the amount.
 */
export const INLINE_CREATE_MS = 2500;
/** A submission is remembered this long, so a redelivery or a second click creates nothing more. */
const SUBMISSION_MEMORY_MS = 60 * 60 * 1000;

const originSchema = z.object({ t: z.string().min(1), c: z.string().regex(/^[CGDU][A-Z0-9]+$/) });
/** The parts of view.state.values the modal defines; anything else is ignored. */
const formSchema = z.object({
  [CREATE_FIELDS.amount]: z.object({ value: textValue }),
  [CREATE_FIELDS.currency]: z.object({ value: selectValue }),
  [CREATE_FIELDS.lifetime]: z.object({ value: textValue }),
  [CREATE_FIELDS.description]: z.object({ value: textValue }).optional(),
  [CREATE_FIELDS.extra]: z.object({ value: textValue }).optional(),
  [CREATE_FIELDS.method]: z.object({ value: selectValue }).optional(),
});

type Attempt = { ok: true; created: CreatedInvoice } | { ok: false; error: unknown };

/**
 * The create modal's submit: validate, check the submitter again (a submission is a request of its
 * own), claim the submission so it creates one invoice however often it arrives, create the invoice,
 * then post its card (read back with invoice/info: the service's own view) where the command was typed.
 */
export const createInvoiceSubmission =
  (deps: ManagerDeps & Pick<ListenerDeps, "claimOnce" | "now" | "payments" | "watches">) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const started = performance.now();
    const userId = body.user.id;
    const teamId = teamIdOf(body);
    const fields: Record<string, unknown> = {};
    const log = (level: "info" | "error", extra: Record<string, unknown>) =>
      deps.logger[level](
        {
          view: CREATE_INVOICE_VIEW,
          team: teamId,
          user: userId,
          ...fields,
          ...extra,
          latencyMs: Math.round(performance.now() - started),
        },
        "view handled",
      );
    const origin = originSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
    const form = formSchema.safeParse(view.state.values);
    if (!origin.success || !form.success || origin.data.t !== teamId) {
      await ack({
        response_action: "errors",
        errors: { [CREATE_FIELDS.amount]: "This form is out of date. Close it and run /invoice new again." },
      });
      return log("info", { outcome: "bad_form" });
    }
    const values = form.data;
    const checked = validateCreateInput({
      amount: values[CREATE_FIELDS.amount].value.value,
      currency: values[CREATE_FIELDS.currency].value.selected_option?.value,
      lifetime: values[CREATE_FIELDS.lifetime].value.value,
      description: values[CREATE_FIELDS.description]?.value.value,
      extra: values[CREATE_FIELDS.extra]?.value.value,
      requiredMethod: values[CREATE_FIELDS.method]?.value.selected_option?.value,
    });
    if (!checked.ok) {
      await ack({ response_action: "errors", errors: checked.errors });
      return log("info", { outcome: "invalid", fields: Object.keys(checked.errors) });
    }
    const draft = checked.draft;
    const creator: Creator = { teamId, userId, channelId: origin.data.c };
    const permission = await mayCreate(deps, client, { userId, teamId, enterpriseId: body.enterprise?.id });
    if (!permission.allowed) {
      await ack({
        response_action: "errors",
        errors: {
          [CREATE_FIELDS.amount]: `In this workspace only ${WHO_MAY_MANAGE} can create invoices. Nothing was created.`,
        },
      });
      return log("info", { outcome: "not_allowed", why: permission.why });
    }

    // One invoice per submission: Slack redelivers a submission it got no answer to, and a double
    // click sends it twice. The same form with the same values is the same submission.
    const digest = createHash("sha256").update(JSON.stringify(draft)).digest("base64url").slice(0, 22);
    let first: boolean;
    try {
      first = await deps.claimOnce(`create:${teamId}:${view.id}:${digest}`, SUBMISSION_MEMORY_MS);
    } catch (error) {
      // Without the store Kassa cannot promise "once": create nothing.
      await ack({
        response_action: "errors",
        errors: {
          [CREATE_FIELDS.amount]:
            "Kassa's storage is not answering, so nothing was created. Try again in a minute.",
        },
      });
      return log("error", { outcome: "store_failed", err: error });
    }
    if (!first) {
      await ack({
        response_action: "errors",
        errors: {
          [CREATE_FIELDS.amount]:
            "This form was already sent with these values: the invoice's card goes to the channel, or Kassa tells you privately what went wrong. Close the form, or change a value to create another invoice.",
        },
      });
      return log("info", { outcome: "duplicate" });
    }

    const attempt: Promise<Attempt> = deps.payments.createInvoice(teamId, draft).then(
      (created) => ({ ok: true, created }),
      (error: unknown) => ({ ok: false, error }),
    );
    const inlineMs = Math.max(0, INLINE_CREATE_MS - (performance.now() - started));
    let timer: NodeJS.Timeout | undefined;
    const quick = await Promise.race([
      attempt,
      new Promise<null>((resolve) => {
        timer = setTimeout(resolve, inlineMs, null);
      }),
    ]);
    clearTimeout(timer);
    if (quick && !quick.ok && quick.error instanceof ServiceError) {
      // Refused in time: said next to the amount, the form kept open with what was typed.
      await ack({
        response_action: "errors",
        errors: { [CREATE_FIELDS.amount]: refusalText(quick.error.messages) },
      });
      return log("info", { outcome: "refused", inline: true, serviceErrors: quick.error.messages });
    }
    await ack();
    fields.slow = quick === null;
    const result = quick ?? (await attempt);
    if (!result.ok) {
      const outcome: CreatedCardNote = {};
      if (result.error instanceof ServiceError) {
        await tellCreator(
          client,
          creator,
          createRefusedMessage(result.error.messages, draft.amount, draft.currency),
          outcome,
        ).catch((error: unknown) => {
          outcome.tellError = String(error);
        });
        return log("info", { outcome: "refused", serviceErrors: result.error.messages, ...outcome });
      }
      const reference = newReference();
      // Only these failures happen before anything is sent; after any other, the invoice may exist.
      const notSent = result.error instanceof NotConnectedError || result.error instanceof BusyError;
      const message = notSent
        ? createNotSentMessage(
            draft.amount,
            draft.currency,
            result.error instanceof NotConnectedError
              ? "this workspace's cash register is no longer connected"
              : "the payment service is busy with this cash register's other requests",
          )
        : createFailedMessage(
            draft.amount,
            draft.currency,
            result.error instanceof PaymentsError
              ? "the payment service did not give a usable answer"
              : "an error on Kassa's side",
            reference,
          );
      await tellCreator(client, creator, message, outcome).catch((error: unknown) => {
        outcome.tellError = String(error);
      });
      if (notSent)
        return log("info", { outcome: "not_sent", reason: (result.error as Error).name, ...outcome });
      return log("error", { outcome: "create_failed", reference, err: result.error, ...outcome });
    }
    auditCreated(deps, creator, result.created, draft);
    const outcome: CreatedCardNote = { invoice: result.created.id };
    try {
      await postCreatedInvoiceCard(deps, client, creator, result.created, draft, outcome);
      log("info", { outcome: "created", ...outcome });
    } catch (error) {
      log("error", { outcome: "card_failed", err: error, ...outcome });
    }
  };
