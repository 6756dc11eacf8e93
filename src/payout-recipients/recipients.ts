import { appendOwed, recordOwed } from "../audit/owed.js";
import { newRef } from "../payments/marker.js";
import { payoutsOn } from "../payouts/policy.js";
import { registerOfKey } from "../store/registers.js";
import {
  CONFIRMATIONS_NEEDED,
  LIST_FIELD,
  type Listed,
  lastFourOf,
  listWith,
  RECIPIENT_FIELD,
  RECIPIENTS,
  type Recipient,
  readRecipients,
  recipientKey,
  recipientSchema,
  sameLabel,
  sameWallet,
} from "./model.js";
import {
  askRefusal,
  confirmRefusal,
  entryOf,
  type RecipientAsk,
  type RecipientDeps,
  type RecipientRefusal,
} from "./rules.js";

// Adding a recipient, its confirmations and its removal: each checked against the policy read now,
// written by compare-and-set (of two approvers confirming at once on two replicas, both count, in
// turn; of two confirming the last one needed, one makes it trusted), with its audit entry owed in
// the same step (src/audit/owed.ts).

export type { RecipientAsk, RecipientDeps, RecipientRefusal } from "./rules.js";
export { confirmRefusal } from "./rules.js";

/**
 * A new recipient, pending its two confirmations: listed first (its label unique in the register, its
 * method and wallet not another's), then written with its entry recipient.added.
 */
export async function addRecipient(
  deps: RecipientDeps,
  ask: RecipientAsk,
  now: Date,
): Promise<{ kind: "added"; recipient: Recipient } | { kind: "refused"; refusal: RecipientRefusal }> {
  const policy = await deps.policies.get(ask.registerKey);
  const early = await askRefusal(deps, policy, ask);
  if (early) return { kind: "refused", refusal: early };
  const others = await readRecipients(deps.board, ask.registerKey);
  const known = others.find((one) => sameWallet(one, ask.method, ask.wallet));
  if (known) return { kind: "refused", refusal: { kind: "wallet_known", label: known.label } };
  const recipient = recipientSchema.parse({
    v: 1,
    id: newRef(),
    registerKey: ask.registerKey,
    team: registerOfKey(ask.registerKey).team,
    label: ask.label.trim(),
    method: ask.method.toUpperCase(),
    wallet: ask.wallet,
    ...(ask.walletExtra ? { walletExtra: ask.walletExtra } : {}),
    note: ask.note.trim(),
    added: { by: ask.by, at: now.toISOString() },
    confirmations: [],
    status: "pending",
  });
  const taken = await RECIPIENTS.update(deps.board, ask.registerKey, LIST_FIELD, (stored) => {
    const list = stored.value ?? [];
    const same = list.find((one) => one.status !== "removed" && sameLabel(one.label, recipient.label));
    if (same) return { result: same.label };
    const entry: Listed = { id: recipient.id, label: recipient.label, status: "pending" };
    return { next: listWith(list, entry), result: undefined };
  });
  if (taken) return { kind: "refused", refusal: { kind: "label_taken", label: taken } };
  const owed = entryOf(recipient, { action: "recipient.added", by: ask.by, outcome: "done", time: now });
  const key = recipientKey(ask.registerKey, recipient.id);
  if (!(await RECIPIENTS.swap(deps.board, key, RECIPIENT_FIELD, undefined, recipient, owed)))
    throw new Error(`recipient ${recipient.id} is stored already`);
  await appendOwed(deps, now.getTime());
  return { kind: "added", recipient };
}

/** The list's entry of a recipient brought to its status. */
async function listStatus(deps: RecipientDeps, recipient: Recipient): Promise<void> {
  await RECIPIENTS.update(deps.board, recipient.registerKey, LIST_FIELD, (stored) => {
    const list = stored.value ?? [];
    const entry: Listed = { id: recipient.id, label: recipient.label, status: recipient.status };
    return { next: listWith(list, entry), result: undefined };
  });
}

export type ConfirmResult =
  | { kind: "confirmed"; recipient: Recipient }
  | { kind: "trusted"; recipient: Recipient }
  | { kind: "refused"; refusal: RecipientRefusal; recipient?: Recipient };

/**
 * An approver's confirmation, the wallet's last four typed: a wrong four is refused and counts
 * nothing; confirmations count only from approvers of the policy now; the second makes it trusted.
 * Every refusal is audited (recipient.confirmed, refused).
 */
export async function confirmRecipient(
  deps: RecipientDeps,
  at: { registerKey: string; id: string },
  person: string,
  typed: string,
  now: Date,
): Promise<ConfirmResult> {
  const policy = await deps.policies.get(at.registerKey);
  const key = recipientKey(at.registerKey, at.id);
  const result = await RECIPIENTS.update(deps.board, key, RECIPIENT_FIELD, (stored) => {
    const recipient = stored.value?.registerKey === at.registerKey ? stored.value : undefined;
    const refusal =
      confirmRefusal(policy, recipient, person) ??
      (typed.replace(/\s+/g, "").toUpperCase() === lastFourOf(recipient?.wallet ?? "").toUpperCase()
        ? undefined
        : ({ kind: "wrong_last_four" } as const));
    if (refusal || !recipient || !payoutsOn(policy))
      return {
        result: { kind: "refused", refusal: refusal ?? { kind: "not_found" }, recipient } as ConfirmResult,
      };
    const confirmations = [
      ...recipient.confirmations.filter((one) => policy.approvers.includes(one.by)),
      { by: person, at: now.toISOString() },
    ];
    const trusted = confirmations.length >= CONFIRMATIONS_NEEDED;
    const next: Recipient = trusted
      ? { ...recipient, confirmations, status: "trusted", trustedAt: now.toISOString() }
      : { ...recipient, confirmations };
    const along = entryOf(next, { action: "recipient.confirmed", by: person, outcome: "done", time: now });
    return {
      next,
      along,
      result: { kind: trusted ? "trusted" : "confirmed", recipient: next } as ConfirmResult,
    };
  });
  if (result.kind === "refused") {
    if (result.recipient)
      await recordOwed(
        deps,
        entryOf(result.recipient, {
          action: "recipient.confirmed",
          by: person,
          outcome: "refused",
          reason: result.refusal.kind,
          time: now,
        }),
        now.getTime(),
      );
    return result;
  }
  if (result.kind === "trusted") {
    await listStatus(deps, result.recipient);
    const entry = { action: "recipient.trusted" as const, by: "kassa", outcome: "done" as const, time: now };
    await recordOwed(deps, entryOf(result.recipient, entry), now.getTime());
  } else await appendOwed(deps, now.getTime());
  return result;
}

type RemoveResult =
  | { kind: "removed"; recipient: Recipient }
  | { kind: "refused"; refusal: RecipientRefusal };

/** An admin's removal (the listener checks the admin): by label, pending or trusted. */
export async function removeRecipient(
  deps: RecipientDeps,
  registerKey: string,
  id: string,
  by: string,
  now: Date,
): Promise<RemoveResult> {
  const key = recipientKey(registerKey, id);
  const result = await RECIPIENTS.update<typeof RECIPIENT_FIELD, RemoveResult>(
    deps.board,
    key,
    RECIPIENT_FIELD,
    (stored) => {
      const recipient = stored.value?.registerKey === registerKey ? stored.value : undefined;
      if (!recipient) return { result: { kind: "refused", refusal: { kind: "not_found" } } };
      if (recipient.status === "removed")
        return { result: { kind: "refused", refusal: { kind: "closed", status: "removed" } } };
      const next: Recipient = { ...recipient, status: "removed", removed: { by, at: now.toISOString() } };
      const along = entryOf(next, { action: "recipient.removed", by, outcome: "done", time: now });
      return { next, along, result: { kind: "removed", recipient: next } };
    },
  );
  if (result.kind === "removed") {
    await listStatus(deps, result.recipient);
    await appendOwed(deps, now.getTime());
  }
  return result;
}

/** Where its card is, once posted (to update it as confirmations come). */
export async function noteCard(
  deps: Pick<RecipientDeps, "board">,
  recipient: Recipient,
  card: { channel: string; ts: string },
): Promise<void> {
  const key = recipientKey(recipient.registerKey, recipient.id);
  await RECIPIENTS.update(deps.board, key, RECIPIENT_FIELD, (stored) =>
    stored.value ? { next: { ...stored.value, card }, result: undefined } : { result: undefined },
  );
}
