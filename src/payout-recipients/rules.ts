import type { AuditAction } from "../audit/index.js";
import { type OwedEntry, owedEntry } from "../audit/owed.js";
import { type PayoutPolicy, payoutsOn } from "../payouts/policy.js";
import type { PayoutDeps } from "../payouts/request-deps.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import { CONFIRMATIONS_NEEDED, LABEL_MAX, type Recipient } from "./model.js";

// Who may add and confirm a recipient, what an ask may be, and each step's audit entry.

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

export type Act = {
  action: AuditAction;
  by: string;
  outcome: "done" | "refused";
  reason?: string;
  time: Date;
};

/** The audit entry of a step of a recipient. */
export function entryOf(recipient: Recipient, act: Act): OwedEntry {
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
export async function askRefusal(
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
