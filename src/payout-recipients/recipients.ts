import type { AuditAction } from "../audit/index.js";
import { appendOwed, type OwedEntry, owedEntry, recordOwed } from "../audit/owed.js";
import { newRef } from "../payments/marker.js";
import { type PayoutPolicy, payoutsOn } from "../payouts/policy.js";
import type { PayoutDeps } from "../payouts/request-deps.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import {
  CONFIRMATIONS_NEEDED,
  LABEL_MAX,
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

// Adding a recipient, its confirmations and its removal: each checked against the policy read now,
// written by compare-and-set (of two approvers confirming at once on two replicas, both count, in
// turn; of two confirming the last one needed, one makes it trusted), with its audit entry owed in
// the same step (src/audit/owed.ts).

export type RecipientDeps = Pick<PayoutDeps, "board" | "audit" | "logger" | "policies" | "isAdmin">;

/** What a requester adds. */
export type RecipientAsk = {
  registerKey: string;
  by: string;
  label: string;
  method: string;
  wallet: string;
  walletExtra?: string | undefined;
  note: string;
};

export type RecipientRefusal =
  | { kind: "payouts_off" }
  | { kind: "not_a_requester"; requesters: string[] }
  | { kind: "method_not_allowed"; methods: string[] }
  | { kind: "invalid"; field: "label" | "wallet" | "note" | "walletExtra" }
  | { kind: "label_taken"; label: string }
  | { kind: "wallet_known"; label: string }
  /** Fewer than two approvers besides the one adding it: nobody could make it trusted. */
  | { kind: "too_few_approvers"; approvers: string[] }
  | { kind: "not_found" }
  | { kind: "not_an_approver"; approvers: string[] }
  | { kind: "own_recipient" }
  | { kind: "already_confirmed" }
  | { kind: "wrong_last_four" }
  | { kind: "closed"; status: "trusted" | "removed" };

type Act = { action: AuditAction; by: string; outcome: "done" | "refused"; reason?: string; time: Date };

/** The audit entry of a step of a recipient. */
function entryOf(recipient: Recipient, act: Act): OwedEntry {
  const { team, name } = registerOfKey(recipient.registerKey);
  return owedEntry({
    time: act.time.toISOString(),
    team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: act.by,
    action: act.action,
    object: `recipient ${recipient.id}`,
    after: {
      label: recipient.label,
      method: recipient.method,
      wallet: recipient.wallet,
      status: recipient.status,
      confirmations: recipient.confirmations.map((one) => one.by),
    },
    outcome: act.outcome,
    ...(act.reason ? { reason: act.reason.slice(0, 200) } : {}),
  });
}

async function mayRequest(deps: RecipientDeps, policy: PayoutPolicy, person: string, team: string) {
  return policy.requesters.length > 0 ? policy.requesters.includes(person) : deps.isAdmin(team, person);
}

/** What is wrong with an ask before anything is written; undefined when nothing. */
async function askRefusal(
  deps: RecipientDeps,
  policy: PayoutPolicy | undefined,
  ask: RecipientAsk,
): Promise<RecipientRefusal | undefined> {
  if (!payoutsOn(policy)) return { kind: "payouts_off" };
  if (!(await mayRequest(deps, policy, ask.by, registerOfKey(ask.registerKey).team)))
    return { kind: "not_a_requester", requesters: policy.requesters };
  const method = ask.method.toUpperCase();
  if (policy.methods.length > 0 && !policy.methods.some((code) => code.toUpperCase() === method))
    return { kind: "method_not_allowed", methods: policy.methods };
  const label = ask.label.trim();
  if (label === "" || label.length > LABEL_MAX || /[\n\r`*]/.test(label) || !/\p{L}/u.test(label))
    return { kind: "invalid", field: "label" };
  if (!/^\S{1,512}$/.test(ask.wallet)) return { kind: "invalid", field: "wallet" };
  if (ask.note.length > 300) return { kind: "invalid", field: "note" };
  if ((ask.walletExtra ?? "").length > 200) return { kind: "invalid", field: "walletExtra" };
  const approvers = policy.approvers.filter((one) => one !== ask.by);
  if (approvers.length < CONFIRMATIONS_NEEDED) return { kind: "too_few_approvers", approvers };
  return undefined;
}

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

/** Whether `person` may confirm `recipient` now; undefined when they may (the last four checked apart). */
export function confirmRefusal(
  policy: PayoutPolicy | undefined,
  recipient: Recipient | undefined,
  person: string,
): RecipientRefusal | undefined {
  if (!recipient) return { kind: "not_found" };
  if (!payoutsOn(policy)) return { kind: "payouts_off" };
  if (recipient.status !== "pending") return { kind: "closed", status: recipient.status };
  if (person === recipient.added.by) return { kind: "own_recipient" };
  if (!policy.approvers.includes(person)) return { kind: "not_an_approver", approvers: policy.approvers };
  if (recipient.confirmations.some((one) => one.by === person)) return { kind: "already_confirmed" };
  return undefined;
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
