import { z } from "zod";
import { auditEntrySchema } from "../audit/entry.js";
import { appendOwed, type OwedDeps, owedEntry } from "../audit/owed.js";
import { boardOnFirstUse, defineFamily } from "../store/claims/family.js";
import { type ClaimBoard, openClaimBoard } from "../store/claims/index.js";
import type { KeyvStore } from "../store/connection.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import { type PayoutPolicy, type PolicyDraft, payoutPolicySchema } from "./policy.js";

// Each register's payout policy is one state on the claim board (family PAYOUT_POLICY_FAMILY, item =
// the register key, state POLICY_FIELD), changed only by swapState: of two admins saving at once one
// wins and the other is told it changed meanwhile. Every change is written down in a second state of
// the same item (HISTORY_FIELD): the last HISTORY_KEPT changes, each with who, when, before and after.

export const PAYOUT_POLICY_FAMILY = "payout-policy";
const POLICY_FIELD = "policy";
const HISTORY_FIELD = "history";
export const HISTORY_KEPT = 50;
/** An append that keeps losing means the register's policy is being changed without pause; give up then. */
const MAX_ATTEMPTS = 8;

export const policyChangeSchema = z.object({
  version: z.number().int().min(1),
  by: z.string().min(1),
  at: z.iso.datetime(),
  before: payoutPolicySchema.nullable(),
  after: payoutPolicySchema,
});
/** One change of a register's policy, as the history keeps it. */
export type PolicyChange = z.infer<typeof policyChangeSchema>;
const historySchema = z.array(policyChangeSchema);

/** The family: an item per register (its key), its policy and its history; forgotten with the register. */
const PAYOUT_POLICIES = defineFamily({
  name: PAYOUT_POLICY_FAMILY,
  fields: { [POLICY_FIELD]: payoutPolicySchema, [HISTORY_FIELD]: historySchema },
  kept: "until its register is disconnected or Kassa uninstalled",
});

/** A policy as read: none set, set, or stored but unreadable (payouts stay off; the operator is told). */
export type PolicyRead =
  | { kind: "none" }
  | { kind: "set"; policy: PayoutPolicy }
  | { kind: "unreadable"; version: number | undefined };

export type PolicySaved =
  | { kind: "saved"; policy: PayoutPolicy; before: PayoutPolicy | undefined }
  /** Someone else saved since the form was opened (or during this save): nothing was written. */
  | { kind: "changed_meanwhile"; current: PolicyRead };

/**
 * Who saves, when, and the version the saver saw (undefined: whatever is there now, as the CLI does);
 * `audit`: the trail the change is written to, as one with the save (its entry owed in the same step).
 */
export type PolicySave = {
  by: string;
  now: Date;
  seenVersion?: number | undefined;
  audit?: Pick<OwedDeps, "audit" | "logger"> | undefined;
};

/** The audit entry of a policy change, owed with its save (none when the key's team is no workspace). */
function changeEntry(key: string, save: PolicySave, before: PolicyRead, after: PayoutPolicy) {
  const { team, name } = registerOfKey(key);
  const json = (value: unknown) => JSON.parse(JSON.stringify(value ?? null));
  const input = {
    time: save.now.toISOString(),
    team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: save.by,
    action: "payout.policy_changed" as const,
    object: `payout policy ${name}`,
    before: json(before.kind === "set" ? before.policy : null),
    after: json(after),
    outcome: "done" as const,
  };
  return auditEntrySchema.safeParse(input).success ? owedEntry(input) : undefined;
}

function readOf(raw: unknown): PolicyRead {
  if (raw === undefined) return { kind: "none" };
  const parsed = payoutPolicySchema.safeParse(raw);
  if (parsed.success) return { kind: "set", policy: parsed.data };
  const version = z.object({ version: z.number().int() }).safeParse(raw);
  return { kind: "unreadable", version: version.success ? version.data.version : undefined };
}

export function versionOf(read: PolicyRead): number {
  if (read.kind === "set") return read.policy.version;
  return read.kind === "unreadable" ? (read.version ?? 0) : 0;
}

export class PayoutPolicies {
  private readonly board: () => Promise<ClaimBoard>;

  /** `open`: the claim board, opened on first use (and again after a failed opening). */
  constructor(open: () => Promise<ClaimBoard>) {
    this.board = boardOnFirstUse(open);
  }

  /** The register's policy as stored now (never cached: a change must show on every replica at once). */
  async read(key: string): Promise<PolicyRead> {
    return readOf((await PAYOUT_POLICIES.read(await this.board(), key, POLICY_FIELD)).raw);
  }

  /** The policy in force: undefined when none is set or the stored one is unreadable. */
  async get(key: string): Promise<PayoutPolicy | undefined> {
    const read = await this.read(key);
    return read.kind === "set" ? read.policy : undefined;
  }

  /**
   * Saves `draft` as the register's policy with the next version, by compare-and-set of the state
   * read: a save racing another loses (nothing written) and says what is there now. With
   * `seenVersion`, a policy saved by someone else since (another version) is not overwritten either.
   */
  async save(key: string, draft: PolicyDraft, save: PolicySave): Promise<PolicySaved> {
    const board = await this.board();
    const { raw } = await PAYOUT_POLICIES.read(board, key, POLICY_FIELD);
    const current = readOf(raw);
    const version = versionOf(current);
    if (save.seenVersion !== undefined && save.seenVersion !== version)
      return { kind: "changed_meanwhile", current };
    const policy: PayoutPolicy = {
      v: 1,
      ...draft,
      version: version + 1,
      changedBy: save.by,
      changedAt: save.now.toISOString(),
    };
    const owed = save.audit && changeEntry(key, save, current, policy);
    if (!(await PAYOUT_POLICIES.swap(board, key, POLICY_FIELD, raw, policy, owed)))
      return { kind: "changed_meanwhile", current: await this.read(key) };
    if (owed && save.audit) await appendOwed({ board, ...save.audit }, save.now.getTime());
    const before = current.kind === "set" ? current.policy : undefined;
    await this.record(board, key, {
      version: policy.version,
      by: save.by,
      at: policy.changedAt,
      before: before ?? null,
      after: policy,
    });
    return { kind: "saved", policy, before };
  }

  /**
   * Appends a change to the history by compare-and-set, keeping the last HISTORY_KEPT; a change of a
   * version already there is not written twice. Should the process stop between the policy's swap
   * and this, the change is still known from the next one's `before` (its changedBy, changedAt).
   */
  private async record(board: ClaimBoard, key: string, change: PolicyChange): Promise<void> {
    await PAYOUT_POLICIES.update(
      board,
      key,
      HISTORY_FIELD,
      (stored) => {
        const kept = stored.value ?? [];
        if (kept.some((entry) => entry.version === change.version)) return { result: undefined };
        const next = [...kept, change].sort((a, b) => a.version - b.version).slice(-HISTORY_KEPT);
        return { next, result: undefined };
      },
      MAX_ATTEMPTS,
    );
  }

  /** The register's policy changes kept, oldest first. */
  async history(key: string): Promise<PolicyChange[]> {
    return (await PAYOUT_POLICIES.read(await this.board(), key, HISTORY_FIELD)).value ?? [];
  }

  /** Forgets a register's policy and its history (the register removed, Kassa uninstalled). */
  async remove(key: string): Promise<void> {
    await (await this.board()).drop(PAYOUT_POLICY_FAMILY, key);
  }
}

/** The payout policies of a store, on its claim board under `prefix` (a test run's own, or the store's). */
export function payoutPoliciesFor(
  store: Pick<KeyvStore, "native">,
  timeoutMs: number,
  options: { prefix?: string } = {},
): PayoutPolicies {
  return new PayoutPolicies(() => openClaimBoard(store, options.prefix ?? DEFAULT_PREFIX, timeoutMs));
}
