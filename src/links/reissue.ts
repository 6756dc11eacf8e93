import type { webApi } from "@slack/bolt";
import { type AuditRecorder, recordAct } from "../audit/index.js";
import { isExpired } from "../blocks/invoice.js";
import type { CreatedCardNote } from "../invoices/created-card.js";
import type { InvoiceDeps } from "../invoices/deps.js";
import { newRef, readExtra } from "../payments/marker.js";
import type { Invoice, InvoiceDraft } from "../payments/model.js";
import type { LinkBook } from "./book.js";
import { createLink, type LinkAttempt } from "./create.js";
import { draftOf } from "./create-now.js";
import type { LinkRecord } from "./record.js";
import { markOldCard, postReissuedCard } from "./reissue-cards.js";
import { markReplaced, unmarkReplaced } from "./reissue-record.js";

// Re-issue in one click (issue 51, item 3): a new invoice with the same amount, currency,
// description, the user's extra, customer, e-mail, method and lifetime, for a link whose page closed
// unpaid (or, confirmed, one still open). The old link's record is marked first, one compare-and-set
// (record.ts), so two clicks or two replicas make one invoice; the new one is created as any link is
// (its record first, a new marker, sent once: a lost answer is unsure, with Create now). Its card
// goes in the old card's thread, the old card says "Replaced by …", and the act is audited.

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
  const attempt = await createLink(
    deps,
    ask.registerKey,
    draft,
    {
      team: ask.team,
      register: record.register,
      customer: record.customer,
      creator: ask.user,
      channel: record.channel,
      via: "reissue",
      replaces: record.ref,
    },
    next,
  );
  if (!attempt.ok) {
    // Surely not made (refused, or nothing sent): the old link may be re-issued again.
    if (attempt.status !== "unsure")
      await unmarkReplaced(deps.links, ask.registerKey, record.ref, next).catch((error: unknown) =>
        deps.logger.warn({ link: record.ref, err: error }, "a re-issue's mark could not be taken back"),
      );
    return { kind: "attempted", record, attempt, draft, card: {} };
  }
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
