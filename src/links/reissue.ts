import type { webApi } from "@slack/bolt";
import { recordAct } from "../audit/index.js";
import { isExpired } from "../blocks/invoice.js";
import type { CreatedCardNote } from "../invoices/created-card.js";
import { newRef, readExtra } from "../payments/marker.js";
import type { Invoice, InvoiceDraft } from "../payments/model.js";
import { createLink, type LinkAttempt } from "./create.js";
import { draftOf } from "./create-now.js";
import type { LinkRecord } from "./record.js";
import { markOldCard, postReissuedCard, type ReissueAsk, type ReissueDeps } from "./reissue-cards.js";

export type { ReissueAsk, ReissueDeps } from "./reissue-cards.js";

import { markReplaced, unmarkReplaced } from "./reissue-record.js";

// Re-issue in one click (issue 51, item 3): a new invoice with the same amount, currency,
// description, the user's extra, customer, e-mail, method and lifetime, for a link whose page closed
// unpaid (or, confirmed, one still open). The old link's record is marked first, one compare-and-set
// (record.ts), so two clicks or two replicas make one invoice; the new one is created as any link is
// (its record first, a new marker, sent once: a lost answer is unsure, with Create now). Its card
// goes in the old card's thread, the old card says "Replaced by …", and the act is audited.

/** What a re-issue came to. */
export type Reissue =
  /** No record of Kassa's for it (made elsewhere, before markers, or forgotten). */
  | { kind: "not_kassa"; invoiceId: string | undefined }
  /** Its create answer was lost or refused: nothing to re-issue yet. */
  | { kind: "not_created"; record: LinkRecord }
  | { kind: "paid"; record: LinkRecord; invoiceId: string }
  /** A payment came in (processing, a wrong amount): left alone. */
  | { kind: "in_payment"; record: LinkRecord; invoice: Invoice }
  /** Re-issued before; `newInvoiceId` once the new one is known. */
  | { kind: "already"; record: LinkRecord; by: string; newInvoiceId: string | undefined }
  /** Its page is still open and the re-issue was not confirmed: the asker is warned first. */
  | { kind: "early"; record: LinkRecord; invoice: Invoice }
  | {
      kind: "attempted";
      record: LinkRecord;
      attempt: LinkAttempt;
      draft: InvoiceDraft;
      /** How the new card went (its thread, its watch), and whether the old card was marked. */
      card: CreatedCardNote & { inThread?: boolean; oldCard?: string };
    };

/** What a re-issue's log line says: how it ended. */
export type ReissueLog = {
  result: Exclude<Reissue["kind"], "attempted"> | "reissued";
  reissued?: string;
  inThread?: boolean;
  oldCard?: string;
  posted?: CreatedCardNote["posted"];
};

/** States in which a link whose page is closed may be made again. */
const DEAD_STATES = new Set(["notpayed", "failed", "unavailable"]);

export async function reissue(
  deps: ReissueDeps,
  client: webApi.WebClient,
  ask: ReissueAsk,
): Promise<Reissue> {
  const found = await linkOf(deps, ask);
  if (found.kind !== "found") return found;
  const { record } = found;
  const checked = await refusal(deps, ask, record, found.invoice);
  if (checked.kind !== "ok") return checked;
  const { invoice } = checked;
  const next = newRef();
  const marking = await markReplaced(deps.links, ask.registerKey, record.ref, { next, user: ask.user });
  if (marking.kind === "gone") return { kind: "not_kassa", invoiceId: record.invoiceId };
  if (marking.kind === "already") return already(deps, ask, marking.record);
  const draft = draftOf(record);
  const attempt = await makeAgain(deps, ask, record, draft, next);
  if (!attempt.ok) return { kind: "attempted", record, attempt, draft, card: {} };
  await recordAct(deps.audit, deps.logger, {
    team: ask.team,
    ...(record.register ? { register: record.register } : {}),
    actor: ask.user,
    action: "invoice.reissued",
    object: `invoice ${invoice.id}`,
    after: { invoice: attempt.created.id, amount: record.amount, currency: record.currency },
    outcome: "done",
  });
  const made = { ask, record, created: attempt.created, draft, ref: next };
  const card: Extract<Reissue, { kind: "attempted" }>["card"] = await postReissuedCard(deps, client, made);
  card.oldCard = await markOldCard(deps, client, { ask, record, invoice, newId: attempt.created.id });
  return { kind: "attempted", record, attempt, draft, card };
}

/**
 * The new link, made as any is (its record first, a new marker); surely not made (refused, or
 * nothing sent), the old link's mark is taken back so it may be re-issued again.
 */
async function makeAgain(
  deps: ReissueDeps,
  ask: ReissueAsk,
  record: LinkRecord,
  draft: InvoiceDraft,
  next: string,
): Promise<LinkAttempt> {
  const asker = {
    team: ask.team,
    register: record.register,
    customer: record.customer,
    creator: ask.user,
    channel: record.channel,
    via: "reissue",
    replaces: record.ref,
    // Its reminder too, as the link had it (none once Stop reminding was pressed on it).
    ...(record.remind ? { remind: record.remind } : {}),
  } as const;
  const attempt = await createLink(deps, ask.registerKey, draft, asker, next);
  if (!attempt.ok && attempt.status !== "unsure")
    await unmarkReplaced(deps.links, ask.registerKey, record.ref, next).catch((error: unknown) =>
      deps.logger.warn({ link: record.ref, err: error }, "a re-issue's mark could not be taken back"),
    );
  return attempt;
}

type Found =
  | { kind: "found"; record: LinkRecord; invoice: Invoice | undefined }
  | Extract<Reissue, { kind: "not_kassa" }>;

/** The link's record and its invoice as the service has it now (read once). */
async function linkOf(deps: ReissueDeps, ask: ReissueAsk): Promise<Found> {
  if ("invoice" in ask) {
    const ref = readExtra(ask.invoice.extra).ref;
    const record = ref ? await deps.links.read(ask.registerKey, ref) : undefined;
    // A marker copied into another invoice's `extra` is not that invoice's record.
    if (!record || (record.invoiceId && record.invoiceId !== ask.invoice.id))
      return { kind: "not_kassa", invoiceId: ask.invoice.id };
    return { kind: "found", record, invoice: ask.invoice };
  }
  const record = await deps.links.read(ask.registerKey, ask.ref);
  if (!record) return { kind: "not_kassa", invoiceId: undefined };
  if (!record.invoiceId) return { kind: "found", record, invoice: undefined };
  const invoice = await deps.payments.invoice(ask.registerKey, record.invoiceId);
  return { kind: "found", record, invoice };
}

/** Why not now, checked before the mark (which is checked again there); else the invoice to re-issue. */
async function refusal(
  deps: ReissueDeps,
  ask: ReissueAsk,
  record: LinkRecord,
  invoice: Invoice | undefined,
): Promise<Reissue | { kind: "ok"; invoice: Invoice }> {
  if (record.status !== "created" || !record.invoiceId || !invoice) return { kind: "not_created", record };
  if (record.replacedBy) return already(deps, ask, record);
  if (invoice.state === "payed" || record.outcome === "paid")
    return { kind: "paid", record, invoiceId: invoice.id };
  if (!DEAD_STATES.has(invoice.state)) return { kind: "in_payment", record, invoice };
  const open = invoice.state === "notpayed" && !isExpired(invoice, deps.now());
  if (open && !ask.confirmedEarly) return { kind: "early", record, invoice };
  return { kind: "ok", invoice };
}

/** Re-issued before: by whom, and the new invoice where its record names it. */
async function already(deps: ReissueDeps, ask: ReissueAsk, record: LinkRecord): Promise<Reissue> {
  const next = record.replacedBy
    ? await deps.links.read(ask.registerKey, record.replacedBy).catch(() => undefined)
    : undefined;
  return { kind: "already", record, by: record.replacedByUser ?? ask.user, newInvoiceId: next?.invoiceId };
}
