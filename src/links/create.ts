import { BusyError, NotConnectedError, ServiceError } from "../payments/errors.js";
import { newRef, withMarker } from "../payments/marker.js";
import type { CreatedInvoice, InvoiceDraft } from "../payments/model.js";
import type { WorkspacePayments } from "../registers/workspace-payments.js";
import type { Logger } from "../util/logger.js";
import type { LinkBook, LinkOrder } from "./book.js";
import { changeLink, type LinkRecord, linkKey } from "./record.js";

// Creating a payment link, whoever asks (the form, Create now, a workflow step): the record first
// (nothing is sent when the store cannot keep it), then invoice/create with Kassa's marker after the
// user's own `extra`, sent once and never again (client.ts), then the record settled with what came
// back: the invoice, a refusal, or no usable answer (unsure: the pass looks for it by its marker).

export type LinkDeps = {
  links: LinkBook;
  payments: Pick<WorkspacePayments, "createInvoice">;
  logger: Logger;
};

/** Who asks, where, and for whom: the record's fields besides what the draft says. */
export type LinkAsker = Pick<
  LinkOrder,
  | "team"
  | "register"
  | "customer"
  | "creator"
  | "channel"
  | "via"
  | "run"
  | "supersedes"
  | "remind"
  | "replaces"
  | "scheduleId"
>;

/**
 * How it went: created (with its record, undefined when the store failed after the create), or not,
 * with why: `not_recorded` (the store could not keep the record: nothing sent), `failed` (refused,
 * or nothing sent), `unsure` (it may exist: the pass looks for it, the record says so).
 */
export type LinkAttempt =
  | { ok: true; ref: string; created: CreatedInvoice; record: LinkRecord | undefined }
  | { ok: false; ref: string; error: unknown; status: "not_recorded" | "failed" | "unsure" };

/** Whether a failed create may have reached the service: anything but a refusal or a request never sent. */
export function mayExist(error: unknown): boolean {
  return !(error instanceof ServiceError || error instanceof NotConnectedError || error instanceof BusyError);
}

/** The record's fields of a draft and its asker (the user's own `extra`, without the marker). */
export function orderOf(draft: InvoiceDraft, asker: LinkAsker): LinkOrder {
  const order: LinkOrder = {
    ...asker,
    amount: draft.amount,
    currency: draft.currency,
    lifetimeMinutes: draft.lifetimeMinutes,
  };
  if (draft.description) order.description = draft.description;
  if (draft.extra) order.extra = draft.extra;
  if (draft.payerDetails) order.email = draft.payerDetails;
  if (draft.requiredMethod) order.method = draft.requiredMethod;
  for (const field of [
    "register",
    "customer",
    "channel",
    "run",
    "supersedes",
    "remind",
    "replaces",
    "scheduleId",
  ] as const)
    if (order[field] === undefined) delete order[field];
  return order;
}

/** One payment link: recorded, created with the marker, settled. Never throws: the attempt says how it went. */
export async function createLink(
  deps: LinkDeps,
  registerKey: string,
  draft: InvoiceDraft,
  asker: LinkAsker,
  ref: string = newRef(),
): Promise<LinkAttempt> {
  const marked = withMarker(draft.extra, ref);
  try {
    await deps.links.begin(registerKey, ref, orderOf(draft, asker), marked.marked);
  } catch (error) {
    return { ok: false, ref, error, status: "not_recorded" };
  }
  let created: CreatedInvoice;
  try {
    created = await deps.payments.createInvoice(registerKey, { ...draft, extra: marked.extra || undefined });
  } catch (error) {
    const status = mayExist(error) ? "unsure" : "failed";
    await settled(deps, registerKey, ref, { status });
    return { ok: false, ref, error, status };
  }
  const record = await settled(deps, registerKey, ref, {
    status: "created",
    invoiceId: created.id,
    url: created.url,
  });
  return { ok: true, ref, created, record };
}

/** The record settled; a store failure now is logged (the record stays `creating`: the pass takes it as lost). */
async function settled(
  deps: LinkDeps,
  registerKey: string,
  ref: string,
  how: Parameters<LinkBook["settle"]>[2],
): Promise<LinkRecord | undefined> {
  try {
    return await deps.links.settle(registerKey, ref, how);
  } catch (error) {
    deps.logger.warn(
      { registerKey, link: ref, status: how.status, err: error },
      "a payment link's record could not be settled; the links' pass will look at it",
    );
    return undefined;
  }
}

/** Where a created card went (its thread takes a re-issue's card; the card is marked replaced). */
export type CardPlace = { channel: string; ts: string };

/**
 * The card's place written on the link's record, once (the first card keeps the thread); a store
 * failure is only logged (a later re-issue then posts its card in the channel, not the thread).
 */
export async function noteCardPlaced(
  deps: { links: LinkBook; logger: Logger },
  registerKey: string,
  ref: string,
  delivered: { card?: CardPlace | undefined },
): Promise<void> {
  const card = delivered.card;
  if (!card) return;
  try {
    const board = await deps.links.board();
    await changeLink(board, linkKey(registerKey, ref), (stored) =>
      stored.value && !stored.value.card
        ? { next: { ...stored.value, card }, result: true }
        : { result: false },
    );
  } catch (error) {
    deps.logger.warn(
      { registerKey, link: ref, err: error },
      "a payment link's card place could not be written; a re-issue will post in the channel",
    );
  }
}
