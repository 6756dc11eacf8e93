import type { webApi } from "@slack/bolt";
import { requestRefusedMessage } from "../../blocks/payout-replies.js";
import type { Lang } from "../../i18n/lang.js";
import type { PayoutPolicy } from "../../payouts/policy.js";
import type { Produced } from "../contexts/outcome.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";

/**
 * Who may not request gets no form (the request form, the batch form): told who may, as the request
 * itself would say. Undefined when `user` may request (the policy's requesters; with none named, an admin).
 */
export async function notARequester(
  deps: ManagerDeps,
  client: webApi.WebClient,
  who: { user: string; team: string; enterpriseId?: string | undefined; register: string; lang: Lang },
  policy: PayoutPolicy,
): Promise<Produced | undefined> {
  const may =
    policy.requesters.length > 0
      ? policy.requesters.includes(who.user)
      : (
          await checkManager(deps, client, {
            userId: who.user,
            teamId: who.team,
            enterpriseId: who.enterpriseId,
          })
        ).allowed;
  if (may) return undefined;
  const refusal = { kind: "not_a_requester" as const, requesters: policy.requesters };
  return {
    reply: requestRefusedMessage(refusal, who.register, who.lang),
    log: { outcome: "payout_refused", refusal: refusal.kind },
  };
}
