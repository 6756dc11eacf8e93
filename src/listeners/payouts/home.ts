import type { HomePayouts } from "../../blocks/home-payouts.js";
import { trustedOf } from "../../payout-recipients/lookup.js";
import { payoutsOn } from "../../payouts/policy.js";
import { registerKey } from "../../store/registers.js";
import type { ListenerDeps } from "../deps.js";

/**
 * App Home's payouts part (issue 52): each of `registers` (main first) where payouts are on, with its
 * policy and its trusted recipients. A register whose policy cannot be read is left out; recipients
 * that cannot be read are said so. None without the payouts' stores (a Home published without them).
 */
export async function homePayouts(
  deps: Partial<Pick<ListenerDeps, "payouts" | "payoutPolicies">>,
  teamId: string,
  registers: readonly string[],
): Promise<HomePayouts[]> {
  const { payouts, payoutPolicies } = deps;
  if (!payouts || !payoutPolicies) return [];
  const parts = await Promise.all(
    registers.map(async (name): Promise<HomePayouts | undefined> => {
      const key = registerKey(teamId, name);
      const policy = await payoutPolicies.get(key).catch(() => undefined);
      if (!payoutsOn(policy)) return undefined;
      const recipients = await trustedOf(payouts, key).catch(() => "unread" as const);
      return { register: name, policy, recipients };
    }),
  );
  return parts.filter((part) => part !== undefined);
}
