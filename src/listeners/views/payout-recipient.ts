import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { fieldError } from "../../blocks/form.js";
import {
  CONFIRM_FIELD,
  RECIPIENT_ADD_VIEW,
  RECIPIENT_CONFIRM_VIEW,
  RECIPIENT_FIELDS,
  recipientCard,
} from "../../blocks/payout-recipients.js";
import { plainOf } from "../../blocks/payout-replies.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { PAYOUT_RECIPIENTS_TEXT } from "../../i18n/payout-recipients.js";
import type { Recipient } from "../../payout-recipients/model.js";
import {
  addRecipient,
  confirmRecipient,
  noteCard,
  type RecipientRefusal,
} from "../../payout-recipients/recipients.js";
import { handledSubmission } from "../contexts/handled.js";
import type { Outcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import { personRefusal } from "../payouts/person.js";
import { type RecipientRefusalShown, recipientRefusalText } from "../payouts/recipient-words.js";
import type { ViewArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { registerNamed } from "../workspace/register.js";
import { selectValue, textValue } from "./form.js";

type RecipientViewDeps = ManagerDeps &
  Pick<ListenerDeps, "payouts" | "payoutPolicies" | "now" | "logger" | "inFlight" | "audit" | "stores">;

const addOrigin = z.object({ t: z.string().min(1), c: z.string().min(1), r: z.string().min(1).max(40) });
const text = z.object({ value: textValue }).optional();
const addValues = z
  .object({
    [RECIPIENT_FIELDS.label]: text,
    [RECIPIENT_FIELDS.method]: z.object({ value: selectValue.extend(textValue.shape) }).optional(),
    [RECIPIENT_FIELDS.wallet]: text,
    [RECIPIENT_FIELDS.walletExtra]: text,
    [RECIPIENT_FIELDS.note]: text,
  })
  .transform((values) => {
    const typed = (field: string) =>
      (
        values[field as keyof typeof values] as { value: { value?: string | null } } | undefined
      )?.value.value?.trim() ?? "";
    const method = values[RECIPIENT_FIELDS.method]?.value;
    return {
      label: typed(RECIPIENT_FIELDS.label),
      method: (method?.selected_option?.value ?? method?.value ?? "").trim(),
      wallet: typed(RECIPIENT_FIELDS.wallet).replace(/\s+/g, ""),
      walletExtra: typed(RECIPIENT_FIELDS.walletExtra),
      note: typed(RECIPIENT_FIELDS.note),
    };
  });

/** The field a refusal is said next to. */
function fieldOf(refusal: RecipientRefusal): string {
  if (refusal.kind === "invalid") return RECIPIENT_FIELDS[refusal.field];
  if (refusal.kind === "wallet_known") return RECIPIENT_FIELDS.wallet;
  if (refusal.kind === "method_not_allowed") return RECIPIENT_FIELDS.method;
  return RECIPIENT_FIELDS.label;
}

/** The card in the approval channel, its place noted for later updates. Failures are logged. */
async function postCard(
  deps: RecipientViewDeps,
  client: webApi.WebClient,
  recipient: Recipient,
  where: { channel: string; register: string; lang: Lang },
) {
  try {
    const card = recipientCard(recipient, where.register, where.lang);
    const posted = await client.chat.postMessage({
      channel: where.channel,
      text: card.text,
      blocks: card.blocks,
    });
    if (posted.ts)
      await noteCard(deps.payouts, recipient, { channel: posted.channel ?? where.channel, ts: posted.ts });
  } catch (error) {
    deps.logger.warn({ err: error, recipient: recipient.id }, "could not post a recipient's card");
  }
}

/** `/payout recipient add`'s form submitted: the recipient added (pending), its card posted for the approvers. */
export const recipientAddSubmission =
  (deps: RecipientViewDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const { team, user, lang } = await viewContext(deps, body);
    const where = { view: RECIPIENT_ADD_VIEW, team, user, field: RECIPIENT_FIELDS.label, lang };
    await handledSubmission(deps, where, ack, async (note, reply): Promise<Outcome> => {
      const form = readSubmission(view, team, { origin: addOrigin, values: addValues });
      const register = form ? await registerNamed(deps.stores.registers, team, form.origin.r) : undefined;
      if (!form || !register) {
        await reply(fieldError(RECIPIENT_FIELDS.label, NOTICES_TEXT[lang].formOutdatedCreate));
        return { outcome: "bad_form" };
      }
      const who = { userId: user, teamId: team, enterpriseId: body.enterprise?.id };
      const isAdmin = async () => (await checkManager(deps, client, who)).allowed;
      const ask = { registerKey: register.key, by: user, ...form.values };
      const result = await addRecipient({ ...deps.payouts, isAdmin }, ask, deps.now());
      if (result.kind === "refused") {
        const words = plainOf(recipientRefusalText(result.refusal, lang));
        await reply(fieldError(fieldOf(result.refusal), words.slice(0, 1900)));
        return { outcome: "recipient_refused", refusal: result.refusal.kind, act: "add", recorded: false };
      }
      await reply();
      const { recipient } = result;
      note({ audit: { object: `recipient ${recipient.id}` } });
      const policy = await deps.payoutPolicies.get(register.key);
      if (policy)
        await postCard(deps, client, recipient, { channel: policy.channel, register: register.name, lang });
      const t = PAYOUT_RECIPIENTS_TEXT[lang];
      const said = t.added(`*${recipient.label}*`, policy ? `<#${policy.channel}>` : "");
      await client.chat.postMessage({ channel: user, text: said }).catch(() => undefined);
      return { outcome: "recipient_added" };
    });
  };

const confirmOrigin = z.object({ id: z.string().regex(/^[a-z2-7]{10}$/), r: z.string().min(1).max(40) });
const confirmValues = z
  .object({ [CONFIRM_FIELD]: z.object({ value: textValue }) })
  .transform((values) => values[CONFIRM_FIELD]?.value.value?.trim() ?? "");

/** Confirm's modal submitted: the person checked with Slack now, then the confirmation (the last four checked). */
export const recipientConfirmSubmission =
  (deps: RecipientViewDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const { team, user, lang } = await viewContext(deps, body);
    const where = { view: RECIPIENT_CONFIRM_VIEW, team, user, field: CONFIRM_FIELD, lang };
    await handledSubmission(deps, where, ack, async (note, reply): Promise<Outcome> => {
      const refused = async (refusal: RecipientRefusalShown, recorded: boolean) => {
        const words = plainOf(recipientRefusalText(refusal, lang));
        await reply(fieldError(CONFIRM_FIELD, words.slice(0, 1900)));
        return { outcome: "recipient_refused", refusal: refusal.kind, act: "confirm", recorded } as const;
      };
      const form = readSubmission(view, team, { origin: confirmOrigin, values: confirmValues });
      const register = form ? await registerNamed(deps.stores.registers, team, form.origin.r) : undefined;
      if (!form || !register) return refused({ kind: "not_found" }, false);
      note({ audit: { object: `recipient ${form.origin.id}` } });
      const person = await personRefusal(client, user);
      if (person?.kind === "unchecked") return refused({ kind: "unchecked" }, false);
      if (person) {
        const approvers = (await deps.payoutPolicies.get(register.key))?.approvers ?? [];
        return refused({ kind: "not_an_approver", approvers }, false);
      }
      const at = { registerKey: register.key, id: form.origin.id };
      const result = await confirmRecipient(deps.payouts, at, user, form.values, deps.now());
      if (result.kind === "refused") return refused(result.refusal, result.recipient !== undefined);
      await reply();
      const { card } = result.recipient;
      if (card) {
        const shown = recipientCard(result.recipient, register.name, lang);
        await client.chat
          .update({ channel: card.channel, ts: card.ts, text: shown.text, blocks: shown.blocks })
          .catch((error: unknown) => deps.logger.warn({ err: error }, "could not update a recipient's card"));
      }
      return { outcome: "recipient_confirmed", result: result.kind };
    });
  };
