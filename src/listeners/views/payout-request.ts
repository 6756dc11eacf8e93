import { createHash } from "node:crypto";
import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { fieldError } from "../../blocks/form.js";
import { PAYOUT_REQUEST_VIEW, REQUEST_FIELDS } from "../../blocks/payout-forms.js";
import { amountUnreadText, plainOf, refusalField, requestRefusalText } from "../../blocks/payout-replies.js";
import { refundRefusalText } from "../../blocks/refunds.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { PAYOUT_REQUEST_TEXT } from "../../i18n/payout-request.js";
import { RECIPIENT_ID } from "../../payout-recipients/model.js";
import { readWrittenAmount } from "../../util/rub-amount.js";
import { within } from "../../util/within.js";
import { handledSubmission, type ViewAnswer } from "../contexts/handled.js";
import type { Outcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import { payeeOfForm } from "../payouts/pick.js";
import { refundOfForm } from "../payouts/refund.js";
import { type AskDeps, type AskResult, askPayout, type PayoutAsked } from "../replies/payout-asked.js";
import type { ViewArgs } from "../router.js";
import { registerNamed } from "../workspace/register.js";
import { selectValue, textValue } from "./form.js";

/** How long the form waits for the request (the service's quote): a refusal in time is said in the form. */
export const INLINE_REQUEST_MS = 2500;
/** A submission is remembered this long, so a redelivery or a second click requests nothing more. */
const SUBMISSION_MEMORY_MS = 60 * 60 * 1000;

const originSchema = z.object({
  t: z.string().min(1),
  c: z.string().regex(/^[CGDU][A-Z0-9]+$/),
  r: z.string().min(1).max(40),
  /** A refund's form: the invoice it refunds (listeners/payouts/refund.ts). */
  i: z.string().min(1).max(100).optional(),
});
const text = z.object({ value: textValue }).optional();
const formSchema = z
  .object({
    // A drop-down of the listed methods, or a code typed where the service lists none.
    [REQUEST_FIELDS.method]: z.object({ value: selectValue.extend(textValue.shape) }).optional(),
    [REQUEST_FIELDS.wallet]: text,
    [REQUEST_FIELDS.amount]: text,
    [REQUEST_FIELDS.subtractFrom]: z.object({ value: selectValue }).optional(),
    [REQUEST_FIELDS.reason]: text,
    [REQUEST_FIELDS.reference]: text,
    // The trusted recipient picked (issue 52): its id, as the form listed it.
    [REQUEST_FIELDS.recipient]: z
      .object({
        value: z.object({ selected_option: z.object({ value: z.string().regex(RECIPIENT_ID) }).nullish() }),
      })
      .optional(),
  })
  .transform((values) => {
    const method = values[REQUEST_FIELDS.method]?.value;
    const typed = (field: string) =>
      (
        values[field as keyof typeof values] as { value: { value?: string | null } } | undefined
      )?.value.value?.trim() ?? "";
    return {
      method: (method?.selected_option?.value ?? method?.value ?? "").trim(),
      wallet: typed(REQUEST_FIELDS.wallet).replace(/\s+/g, ""),
      amount: typed(REQUEST_FIELDS.amount),
      subtractFrom:
        values[REQUEST_FIELDS.subtractFrom]?.value.selected_option?.value === "amount" ? "amount" : "balance",
      reason: typed(REQUEST_FIELDS.reason),
      reference: typed(REQUEST_FIELDS.reference),
      recipientId: values[REQUEST_FIELDS.recipient]?.value.selected_option?.value ?? "",
    } as const;
  });

type RequestViewDeps = AskDeps & Pick<ListenerDeps, "claimOnce" | "inFlight" | "audit">;

/** The outcome told to the requester by direct message when the form had closed before it came. */
async function tellLate(
  client: webApi.WebClient,
  user: string,
  result: AskResult,
  register: string,
  lang: Lang,
) {
  const t = PAYOUT_REQUEST_TEXT[lang];
  const words =
    result.kind === "requested"
      ? t.requested(`<#${result.channel}>`, result.request.needed)
      : `:no_entry_sign: ${requestRefusalText(result.refusal, register, lang)}`;
  await client.chat.postMessage({ channel: user, text: words }).catch(() => undefined);
}

/**
 * The request form's Request: the values read, the submission claimed once (a redelivery or a
 * double click requests nothing more), then the request made (askPayout). A refusal that comes in
 * time is said next to its field with the form kept open; a slow one is told by direct message.
 */
export const payoutRequestSubmission =
  (deps: RequestViewDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const started = performance.now();
    const { team, user, lang } = await viewContext(deps, body);
    const where = { view: PAYOUT_REQUEST_VIEW, team, user, field: REQUEST_FIELDS.amount, lang };
    await handledSubmission(deps, where, ack, async (note, reply): Promise<Outcome> => {
      const request: RequestSubmission = { deps, view, team, lang, reply };
      const read = await askedOfForm(request, body);
      if ("outcome" in read) return read;
      const { asked } = read;
      if (asked.register.several) note({ register: asked.register.name });
      const claimed = await claimedBefore(request, read.digest);
      if (claimed) return claimed;
      const attempt = askPayout(deps, client, asked);
      const quick = await within(attempt, INLINE_REQUEST_MS - (performance.now() - started));
      if (quick?.kind === "refused") {
        const words = plainOf(requestRefusalText(quick.refusal, asked.register.name, lang));
        await reply(fieldError(REQUEST_FIELDS[refusalField(quick.refusal)], words.slice(0, 1900)));
        return { outcome: "payout_refused", refusal: quick.refusal.kind };
      }
      await reply();
      const result = quick ?? (await attempt);
      if (!quick) await tellLate(client, user, result, asked.register.name, lang);
      if (result.kind === "refused") return { outcome: "payout_refused", refusal: result.refusal.kind };
      note({ payout: result.request.id });
      return { outcome: "payout_requested" };
    });
  };

/** One submission of the request form being handled. */
type RequestSubmission = {
  deps: RequestViewDeps;
  view: ViewArgs["view"];
  team: string;
  lang: Lang;
  reply: (answer?: ViewAnswer) => Promise<void>;
};

/** The request the form asks for (its register, as its metadata names it here); or why not. */
async function askedOfForm(
  { deps, view, team, lang, reply }: RequestSubmission,
  body: ViewArgs["body"],
): Promise<{ asked: PayoutAsked; digest: string } | Outcome> {
  const form = readSubmission(view, team, { origin: originSchema, values: formSchema });
  const register = form ? await registerNamed(deps.stores.registers, team, form.origin.r) : undefined;
  if (!form || !register) {
    await reply(fieldError(REQUEST_FIELDS.amount, NOTICES_TEXT[lang].formOutdatedCreate));
    return { outcome: "bad_form" };
  }
  const amount = readWrittenAmount(form.values.amount);
  if (!amount.ok) {
    const words = amountUnreadText(form.values.amount, amount.why, lang, true);
    await reply(fieldError(REQUEST_FIELDS.amount, words));
    return { outcome: "invalid", fields: [REQUEST_FIELDS.amount] };
  }
  const refund = form.origin.i
    ? await refundOfForm(deps, register.key, form.origin.i, amount.value)
    : undefined;
  if (refund && "refusal" in refund) {
    await reply(
      fieldError(REQUEST_FIELDS.amount, plainOf(refundRefusalText(refund.refusal, lang)).slice(0, 1900)),
    );
    return { outcome: "refund_refused", refusal: refund.refusal.kind };
  }
  const { recipientId, ...values } = form.values;
  // A trusted recipient picked pays its own method and wallet (read again now); else those typed.
  const payee = await payeeOfForm(deps, register.key, { ...values, recipient: recipientId }, lang);
  if (!payee.ok) {
    await reply(fieldError(REQUEST_FIELDS[payee.field], payee.text));
    return { outcome: "payout_refused", refusal: payee.why };
  }
  const asked: PayoutAsked = {
    team,
    user: body.user.id,
    enterpriseId: body.enterprise?.id,
    register,
    lang,
    ...values,
    amount: amount.value,
    method: payee.method,
    wallet: payee.wallet,
    recipient: payee.recipient,
    ...(refund ? { refundOf: refund } : {}),
  };
  // The same form with the same values is the same submission.
  const digest = createHash("sha256").update(JSON.stringify(form.values)).digest("base64url").slice(0, 22);
  return { asked, digest };
}

/** The submission claimed once: a redelivery or a double click requests nothing more. Undefined: the first. */
async function claimedBefore(
  { deps, view, team, lang, reply }: RequestSubmission,
  digest: string,
): Promise<Outcome | undefined> {
  let first: boolean;
  try {
    first = await deps.claimOnce(`payout-request:${team}:${view.id}:${digest}`, SUBMISSION_MEMORY_MS);
  } catch {
    await reply(fieldError(REQUEST_FIELDS.amount, PAYOUT_REQUEST_TEXT[lang].storeDown));
    return { outcome: "not_sent", reason: "store_unavailable" };
  }
  if (first) return undefined;
  await reply(fieldError(REQUEST_FIELDS.amount, PAYOUT_REQUEST_TEXT[lang].duplicate));
  return { outcome: "duplicate" };
}
