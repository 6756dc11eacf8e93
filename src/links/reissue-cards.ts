import type { webApi } from "@slack/bolt";
import type { AuditRecorder } from "../audit/index.js";
import { buildInvoiceMessage, isExpired } from "../blocks/invoice.js";
import { type WatchStatus, withWatchStatus } from "../blocks/watch.js";
import { DEFAULT_LANG } from "../i18n/lang.js";
import { type CreatedCardNote, type Creator, postCreatedInvoiceCard } from "../invoices/created-card.js";
import type { InvoiceDeps } from "../invoices/deps.js";
import { chosenMethod } from "../invoices/method.js";
import type { CreatedInvoice, Invoice, InvoiceDraft } from "../payments/model.js";
import { slackErrorCode } from "../slack/error.js";
import type { LinkBook } from "./book.js";
import { noteCardPlaced } from "./create.js";
import type { LinkRecord } from "./record.js";

// The two cards of a re-issue (issue 51): the new invoice's, posted in the old card's thread as any
// created invoice's card (live, "Created by" the re-issuer), its place written on its record; and the
// old card, updated in place with "Replaced by NEW (by @person)" and no Re-issue button.

export type ReissueDeps = InvoiceDeps & { links: LinkBook; audit: AuditRecorder };

/** What is re-issued: a link by its ref (a button), or an invoice already read (`/invoice reissue ID`). */
export type ReissueAsk = {
  team: string;
  registerKey: string;
  /** The register's name where the workspace has several (cards say it). */
  register: string | undefined;
  user: string;
  /** Re-issue anyway, pressed on the warning that the old link still works. */
  confirmedEarly: boolean;
} & ({ ref: string } | { invoice: Invoice });

const PERSON = /^[UW][A-Z0-9]{2,}$/;

/** The new card in the old card's thread (the channel where its place is unknown); never throws. */
export async function postReissuedCard(
  deps: ReissueDeps,
  client: webApi.WebClient,
  made: { ask: ReissueAsk; record: LinkRecord; created: CreatedInvoice; draft: InvoiceDraft; ref: string },
): Promise<CreatedCardNote & { inThread?: boolean }> {
  const { ask, record, created, draft } = made;
  const place = record.card;
  const creator: Creator = {
    teamId: ask.team,
    userId: ask.user,
    channelId: place?.channel ?? record.channel ?? ask.user,
    registerKey: ask.registerKey,
    register: ask.register,
    threadTs: place?.ts,
  };
  const note: CreatedCardNote & { inThread?: boolean } = { invoice: created.id };
  try {
    await postCreatedInvoiceCard(
      deps,
      client,
      creator,
      created,
      { ...draft, customer: record.customer },
      note,
    );
  } catch (error) {
    note.tellError = error instanceof Error ? error.message : String(error);
  }
  note.inThread = place !== undefined && note.card !== undefined;
  await noteCardPlaced(deps, ask.registerKey, made.ref, note);
  return note;
}

/** The old card updated in place: how it went ("updated", "no_card" where its place is unknown, or Slack's refusal). */
export async function markOldCard(
  deps: ReissueDeps,
  client: webApi.WebClient,
  given: { ask: ReissueAsk; record: LinkRecord; invoice: Invoice; newId: string },
): Promise<string> {
  const { ask, record, invoice } = given;
  const place = record.card;
  if (!place) return "no_card";
  try {
    const lang = (await deps.stores.settings.get(ask.team).catch(() => undefined))?.language ?? DEFAULT_LANG;
    const now = deps.now();
    const card = buildInvoiceMessage(invoice, {
      now,
      teamId: ask.team,
      visibility: "channel",
      method: await chosenMethod(deps, ask.registerKey, invoice),
      ...(record.via !== "step" && PERSON.test(record.creator) ? { createdBy: record.creator } : {}),
      entered: { value: record.amount, currency: record.currency },
      lang,
      register: ask.register,
      customer: record.customer,
      replacedBy: { invoiceId: given.newId, user: ask.user },
    });
    const message = withWatchStatus(card, statusOf(invoice, now), { t: ask.team, id: invoice.id }, lang);
    await client.chat.update({
      channel: place.channel,
      ts: place.ts,
      text: message.text,
      blocks: message.blocks,
    });
    return "updated";
  } catch (error) {
    deps.logger.warn(
      { team: ask.team, invoice: invoice.id, err: error },
      "a re-issued invoice's old card could not be marked",
    );
    return slackErrorCode(error);
  }
}

/** The live line the old card keeps: ended at expiry (or a final state), else still watched. */
function statusOf(invoice: Invoice, now: Date): WatchStatus {
  if (isExpired(invoice, now)) return { kind: "ended", reason: "expired" };
  if (invoice.state !== "notpayed") return { kind: "ended", reason: "final" };
  return { kind: "watching", lastCheckedAt: now };
}
