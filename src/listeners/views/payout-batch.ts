import { createHash } from "node:crypto";
import { z } from "zod";
import { fieldError } from "../../blocks/form.js";
import {
  BATCH_APPROVE_FIELD,
  BATCH_APPROVE_VIEW,
  BATCH_FIELDS,
  BATCH_FORM_VIEW,
  BATCH_REJECT_FIELD,
  BATCH_REJECT_VIEW,
} from "../../blocks/payout-batch-forms.js";
import { plainOf } from "../../blocks/payout-replies.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { PAYOUT_BATCH_TEXT } from "../../i18n/payout-batch.js";
import { approveBatch, rejectBatch } from "../../payout-batches/decide.js";
import { readPastedBatch } from "../../payout-batches/rows.js";
import { announceBatch } from "../../payout-batches/show.js";
import { handledSubmission } from "../contexts/handled.js";
import type { Outcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import { askBatch, type BatchAskDeps } from "../payouts/batch-ask.js";
import { batchRefusalText, batchVoteRefusalText, pasteProblemsText } from "../payouts/batch-words.js";
import { personRefusal } from "../payouts/person.js";
import type { ViewArgs } from "../router.js";
import { registerNamed } from "../workspace/register.js";
import { textValue } from "./form.js";

/** A submission is remembered this long, so a redelivery or a second click asks for no second batch. */
const SUBMISSION_MEMORY_MS = 60 * 60 * 1000;

const formOrigin = z.object({ t: z.string().min(1), c: z.string().min(1), r: z.string().min(1).max(40) });
const formValues = z
  .object({
    [BATCH_FIELDS.rows]: z.object({ value: textValue }),
    [BATCH_FIELDS.reason]: z.object({ value: textValue }),
  })
  .transform((values) => ({
    rows: values[BATCH_FIELDS.rows]?.value.value ?? "",
    reason: values[BATCH_FIELDS.reason]?.value.value?.trim() ?? "",
  }));

type BatchViewDeps = BatchAskDeps & Pick<ListenerDeps, "claimOnce" | "inFlight" | "audit" | "stores">;

/**
 * `/payout batch`'s form submitted: the pasted rows read (a line that reads neither way is said under
 * the field, the form kept open), the submission claimed once, then the form closed and the batch
 * asked for (askBatch): checked, quoted row by row, its card posted. A refusal is told by direct message.
 */
export const batchFormSubmission =
  (deps: BatchViewDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const { team, user, lang } = await viewContext(deps, body);
    const where = { view: BATCH_FORM_VIEW, team, user, field: BATCH_FIELDS.rows, lang };
    await handledSubmission(deps, where, ack, async (note, reply): Promise<Outcome> => {
      const form = readSubmission(view, team, { origin: formOrigin, values: formValues });
      const register = form ? await registerNamed(deps.stores.registers, team, form.origin.r) : undefined;
      if (!form || !register) {
        await reply(fieldError(BATCH_FIELDS.rows, NOTICES_TEXT[lang].formOutdatedCreate));
        return { outcome: "bad_form" };
      }
      const pasted = readPastedBatch(form.values.rows);
      if (!pasted.ok) {
        await reply(fieldError(BATCH_FIELDS.rows, pasteProblemsText(pasted.problems, lang)));
        return { outcome: "invalid", fields: [BATCH_FIELDS.rows] };
      }
      if (form.values.reason === "") {
        await reply(fieldError(BATCH_FIELDS.reason, PAYOUT_BATCH_TEXT[lang].reasonHint));
        return { outcome: "invalid", fields: [BATCH_FIELDS.reason] };
      }
      const digest = createHash("sha256")
        .update(JSON.stringify(form.values))
        .digest("base64url")
        .slice(0, 22);
      if (!(await deps.claimOnce(`payout-batch:${team}:${view.id}:${digest}`, SUBMISSION_MEMORY_MS))) {
        await reply();
        return { outcome: "duplicate" };
      }
      await reply();
      if (register.several) note({ register: register.name });
      const asked = {
        team,
        user,
        enterpriseId: body.enterprise?.id,
        register,
        lang,
        ...form.values,
        rows: pasted.rows,
      };
      const result = await askBatch(deps, client, asked);
      if (result.kind === "refused") {
        const words = `:no_entry_sign: ${batchRefusalText(result.refusal, register.name, lang)}`;
        await client.chat.postMessage({ channel: user, text: words }).catch(() => undefined);
        return { outcome: "payout_refused", refusal: result.refusal.kind };
      }
      note({ audit: { object: `batch ${result.id}` } });
      return { outcome: "batch_requested" };
    });
  };

const voteOrigin = z.object({ b: z.string().regex(/^[a-z2-7]{10}$/) });
const typed = (field: string) =>
  z
    .object({ [field]: z.object({ value: textValue }) })
    .transform((values) => values[field]?.value.value?.trim() ?? "");

/**
 * A batch's Approve or Reject modal submitted: the person checked with Slack now, then the decision
 * given (checked again against the policy and the batch, by compare-and-set); a refusal stays in the
 * modal under its field. The card is updated at once, and the rows follow.
 */
export const batchVoteSubmission =
  (deps: BatchViewDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const { team, user, lang } = await viewContext(deps, body);
    const approving = view.callback_id === BATCH_APPROVE_VIEW;
    const field = approving ? BATCH_APPROVE_FIELD : BATCH_REJECT_FIELD;
    const where = { view: approving ? BATCH_APPROVE_VIEW : BATCH_REJECT_VIEW, team, user, field, lang };
    await handledSubmission(deps, where, ack, async (note, reply): Promise<Outcome> => {
      const form = readSubmission(view, team, { origin: voteOrigin, values: typed(field) });
      const refused = async (refusal: Parameters<typeof batchVoteRefusalText>[0], by: "kassa" | "slack") => {
        await reply(fieldError(field, plainOf(batchVoteRefusalText(refusal, lang)).slice(0, 1900)));
        const act = approving ? ("approve" as const) : ("reject" as const);
        return { outcome: "batch_refused", refusal: refusal.kind, act, by } as const;
      };
      if (!form) return refused({ kind: "not_found" }, "slack");
      note({ audit: { object: `batch ${form.origin.b}` } });
      const person = await personRefusal(client, user);
      if (person) return refused(person, "slack");
      const now = deps.now();
      const result = approving
        ? await approveBatch(deps.payouts, form.origin.b, team, user, form.values, now)
        : await rejectBatch(deps.payouts, form.origin.b, team, user, form.values, now);
      if (result.kind === "refused") return refused(result.refusal, "kassa");
      await reply();
      await announceBatch(deps.payouts, client, form.origin.b, now, false);
      return { outcome: "batch_decided", result: result.kind };
    });
  };
