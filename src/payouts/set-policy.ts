import type { CredentialsStore } from "../store/credentials.js";
import { checkPolicy, type PayoutPolicy, type PolicyInput, type PolicyProblem } from "./policy.js";
import type { PayoutPolicies, PolicySave, PolicySaved } from "./policy-store.js";

/** What setting a policy needs: the policies, and the register's credentials (for Secret 2). */
export type SetPolicyDeps = {
  policies: Pick<PayoutPolicies, "save">;
  credentials: Pick<CredentialsStore, "get">;
};

export type SetPolicyResult =
  | { kind: "invalid"; problems: PolicyProblem[] }
  /** The register has no credentials at all. */
  | { kind: "not_connected" }
  /** The register's Secret 2 is not stored: no payout could be signed, so no policy is set. */
  | { kind: "no_secret2" }
  | PolicySaved;

/**
 * Sets a register's payout policy, for an admin's form and an operator's CLI alike: the values
 * checked (every problem said), the register connected with its Secret 2 (payouts are signed with
 * it), then saved by compare-and-set.
 */
export async function setPolicy(
  deps: SetPolicyDeps,
  key: string,
  input: PolicyInput,
  save: PolicySave,
): Promise<SetPolicyResult> {
  const checked = checkPolicy(input);
  if (!checked.ok) return { kind: "invalid", problems: checked.problems };
  const connection = await deps.credentials.get(key);
  if (!connection) return { kind: "not_connected" };
  if (!connection.salt) return { kind: "no_secret2" };
  return deps.policies.save(key, checked.draft, save);
}

/** The fields a person sets, in the order they are shown. */
export const POLICY_FIELDS = [
  "enabled",
  "approvers",
  "channel",
  "twoApproversFrom",
  "requesterDaily",
  "registerDaily",
  "trustedOneBelow",
  "approverLimits",
  "expiryMinutes",
  "methods",
  "requesters",
] as const;
export type ShownPolicyField = (typeof POLICY_FIELDS)[number];

/** People and methods are sets: the same ones in another order are no change. */
function sameValue(a: PayoutPolicy[ShownPolicyField], b: PayoutPolicy[ShownPolicyField]): boolean {
  const text = (value: typeof a) => JSON.stringify(Array.isArray(value) ? [...value].sort() : value);
  return text(a) === text(b);
}

/** The fields a change touched (every one for a first policy), for the announcement and the CLI. */
export function changedFields(before: PayoutPolicy | undefined, after: PayoutPolicy): ShownPolicyField[] {
  if (!before) return [...POLICY_FIELDS];
  return POLICY_FIELDS.filter((field) => !sameValue(before[field], after[field]));
}
