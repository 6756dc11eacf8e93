import type { RecipientHooks } from "../payouts/request-deps.js";
import type { PayoutRequest } from "../payouts/request-model.js";
import type { ClaimBoard } from "../store/claims/index.js";
import {
  RECIPIENT_FIELD,
  RECIPIENTS,
  type Recipient,
  readRecipient,
  readRecipients,
  recipientKey,
  sameLabel,
  sameWallet,
} from "./model.js";

// What a payout request asks of the recipients: the trusted one a label names, the trusted one a
// typed wallet is, whether one is still trusted (before a send), and its last payout paid.

/** The register's trusted recipient labelled `label` (case aside); undefined when none. */
export async function trustedByLabel(
  { board }: { board: ClaimBoard },
  registerKey: string,
  label: string,
): Promise<Recipient | undefined> {
  const all = await readRecipients(board, registerKey);
  return all.find((one) => one.status === "trusted" && sameLabel(one.label, label));
}

/** The register's trusted recipient whose method and wallet these are; undefined when none. */
export async function trustedByWallet(
  { board }: { board: ClaimBoard },
  registerKey: string,
  method: string,
  wallet: string,
): Promise<Recipient | undefined> {
  const all = await readRecipients(board, registerKey);
  return all.find((one) => one.status === "trusted" && sameWallet(one, method, wallet));
}

/**
 * `/payout to LABEL AMOUNT REASON…`: the longest trusted label the text starts with, followed by the
 * rest. Undefined when no trusted label starts it.
 */
export function splitLabel(
  trusted: readonly Recipient[],
  text: string,
): { recipient: Recipient; rest: string } | undefined {
  const written = text.trim();
  const found = trusted
    .filter((one) => {
      const head = written.slice(0, one.label.length);
      const after = written.slice(one.label.length);
      return sameLabel(head, one.label) && (after === "" || /^\s/.test(after));
    })
    .sort((a, b) => b.label.length - a.label.length)[0];
  return found && { recipient: found, rest: written.slice(found.label.length).trim() };
}

/** Whether the request's recipient is still trusted, with the method and wallet the request pays. */
export async function stillTrusted(board: ClaimBoard, request: PayoutRequest): Promise<boolean> {
  if (!request.recipient) return false;
  const recipient = await readRecipient(board, request.registerKey, request.recipient.id);
  return recipient?.status === "trusted" && sameWallet(recipient, request.method, request.wallet);
}

/** A payout to a recipient ended paid: its last paid time (a later one kept). */
export async function notePaid(board: ClaimBoard, request: PayoutRequest, at: Date): Promise<void> {
  if (!request.recipient) return;
  const key = recipientKey(request.registerKey, request.recipient.id);
  await RECIPIENTS.update(board, key, RECIPIENT_FIELD, (stored) => {
    const recipient = stored.value;
    if (!recipient || (recipient.lastPaid && Date.parse(recipient.lastPaid.at) >= at.getTime()))
      return { result: undefined };
    return {
      next: { ...recipient, lastPaid: { at: at.toISOString(), payout: request.id } },
      result: undefined,
    };
  });
}

/** What the payout worker asks of the recipients on its board (PayoutDeps.recipients). */
export function recipientHooks(board: ClaimBoard): RecipientHooks {
  return {
    trusted: (request) => stillTrusted(board, request),
    paid: (request, at) => notePaid(board, request, at),
  };
}

/** The register's recipients (removed ones left out), in the order they were added. */
export function recipientsOf({ board }: { board: ClaimBoard }, registerKey: string): Promise<Recipient[]> {
  return readRecipients(board, registerKey);
}

/** The register's trusted recipients. */
export async function trustedOf(deps: { board: ClaimBoard }, registerKey: string): Promise<Recipient[]> {
  return (await recipientsOf(deps, registerKey)).filter((one) => one.status === "trusted");
}

/** One recipient of the register (removed ones too); undefined when none. */
export function recipientOf(
  { board }: { board: ClaimBoard },
  registerKey: string,
  id: string,
): Promise<Recipient | undefined> {
  return readRecipient(board, registerKey, id);
}
