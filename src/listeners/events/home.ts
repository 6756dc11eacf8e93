import { handled } from "../contexts/handled.js";
import type { ListenerDeps } from "../deps.js";
import type { EventArgs } from "../router.js";
import { publishHome } from "../workspace/settings.js";

/** App Home's Home tab: what the connection is and what this person may do, published on each visit. */
export const homeOpened =
  (
    deps: Pick<
      ListenerDeps,
      | "adminUserIds"
      | "stores"
      | "logger"
      | "inFlight"
      | "replyVisibility"
      | "defaultApiVersion"
      | "callbacks"
      | "feeds"
      | "payouts"
      | "payoutPolicies"
    >,
  ) =>
  async ({ event, body, client, context }: EventArgs<"app_home_opened">): Promise<void> => {
    if (event.tab !== "home") return;
    const teamId = context.teamId ?? body.team_id ?? "";
    await handled(deps, { event: "app_home_opened", team: teamId, user: event.user }, async () => {
      await publishHome(deps, client, { userId: event.user, teamId, enterpriseId: context.enterpriseId });
      return { log: { outcome: "ok" } };
    });
  };
