import type { webApi } from "@slack/bolt";
import { type AuditRecorder, recordAct } from "../audit/index.js";
import { buildInvoiceMessage } from "../blocks/invoice.js";
import { ephemeral } from "../blocks/replies.js";
import { DEFAULT_LANG, type Lang } from "../i18n/lang.js";
import { LINKS_TEXT } from "../i18n/links.js";
import { type CreatedCardNote, postCreatedInvoiceCard, tellCreator } from "../invoices/created-card.js";
import type { InvoiceDeps } from "../invoices/deps.js";
import { deliverInvoiceCard } from "../invoices/live-card.js";
import type { SlackClients } from "../watch/registry.js";
import { draftOf } from "./create-now.js";
import type { LinkRecord } from "./record.js";

// A lost answer's invoice found by its marker (the pass, pass.ts): written down in the audit trail,
// its creator told "found: it was made after all" with its card posted as any created invoice's;
// or, where Create now made another meanwhile, told that two links work, and no second card.

export type FoundDeps = InvoiceDeps & { slack: SlackClients; audit: AuditRecorder };

/** What telling came to, for the pass's log line. */
export type FoundNote = CreatedCardNote & { found?: "told" | "told_twice" | "card_only" | "nobody" };

const PERSON = /^[UW][A-Z0-9]{2,}$/;

/** `second`: the invoice Create now made in its place (its id, or its ref while it has none). */
export async function tellFound(
  deps: FoundDeps,
  registerKey: string,
  record: LinkRecord & { invoiceId: string; url: string },
  second?: string,
): Promise<FoundNote> {
  await recordAct(deps.audit, deps.logger, {
    team: record.team,
    ...(record.register ? { register: record.register } : {}),
    actor: "kassa",
    action: "invoice.found",
    object: `invoice ${record.invoiceId}`,
    after: { amount: record.amount, currency: record.currency, ref: record.ref },
    outcome: "done",
  });
  const note: FoundNote = { invoice: record.invoiceId };
  const client = await deps.slack(record.team);
  if (!client) return { ...note, found: "nobody" };
  const lang = (await deps.stores.settings.get(record.team).catch(() => undefined))?.language ?? DEFAULT_LANG;
  const t = LINKS_TEXT[lang];
  const what = `\`${record.amount} ${record.currency}\``;
  const person = PERSON.test(record.creator) ? record.creator : undefined;
  const creator = {
    teamId: record.team,
    userId: record.creator,
    channelId: record.channel ?? record.creator,
    registerKey,
    register: record.register,
  };
  if (record.supersededBy) {
    // Create now made another: told, never posted as a second card.
    if (!person) return { ...note, found: "nobody" };
    const text = t.foundTwice(what, `\`${record.invoiceId}\` (${record.url})`, `\`${second ?? "?"}\``);
    await tellCreator(client, creator, ephemeral(text, t.foundTwiceFallback(record.invoiceId)), note);
    return { ...note, found: "told_twice" };
  }
  if (!person)
    return postUnasked(deps, client, { ...creator, registerName: record.register, record, lang, note });
  await tellCreator(
    client,
    creator,
    ephemeral(t.found(what, `\`${record.invoiceId}\``), t.foundFallback(record.invoiceId)),
    note,
  ).catch((error: unknown) => {
    note.tellError = error instanceof Error ? error.message : String(error);
  });
  const asked = { ...draftOf(record), customer: record.customer };
  await postCreatedInvoiceCard(deps, client, creator, { id: record.invoiceId, url: record.url }, asked, note);
  return { ...note, found: "told" };
}

/** A workflow's link that named nobody: its card in the workflow's channel, if it named one. */
async function postUnasked(
  deps: FoundDeps,
  client: webApi.WebClient,
  given: {
    teamId: string;
    userId: string;
    channelId: string;
    registerKey: string;
    registerName: string | undefined;
    record: LinkRecord & { invoiceId: string };
    lang: Lang;
    note: FoundNote;
  },
): Promise<FoundNote> {
  const { record, lang, note } = given;
  if (!record.channel) return { ...note, found: "nobody" };
  const invoice = await deps.payments.invoice(given.registerKey, record.invoiceId);
  const entered = { value: record.amount, currency: record.currency };
  const options = { entered, lang, customer: record.customer };
  const card = buildInvoiceMessage(invoice, {
    now: deps.now(),
    teamId: record.team,
    visibility: "channel",
    ...options,
    ...(record.register ? { register: record.register } : {}),
  });
  await deliverInvoiceCard(deps, client, given, invoice, card, "channel", note, options);
  return { ...note, found: "card_only" };
}
