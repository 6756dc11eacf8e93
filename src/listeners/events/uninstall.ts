import { forgetWorkspace } from "../../store/index.js";
import type { ListenerDeps } from "../deps.js";
import type { EventArgs } from "../router.js";
import { handled } from "../shared/handled.js";

type ForgetDeps = Pick<
  ListenerDeps,
  "stores" | "payments" | "watches" | "logger" | "feeds" | "inFlight" | "history" | "digests"
>;

/**
 * app_uninstalled, and tokens_revoked for the bot token, leave nothing behind: installation,
 * credentials, settings, cached data, the kept history, live cards and feeds. Slack may deliver an event more than once;
 * deleting is idempotent, so retries are harmless.
 */
async function forget(
  deps: ForgetDeps,
  event: string,
  body: { team_id?: string; enterprise_id?: string },
  context: { teamId?: string; enterpriseId?: string; isEnterpriseInstall?: boolean },
): Promise<void> {
  const query = {
    teamId: context.teamId ?? body.team_id,
    enterpriseId: context.enterpriseId ?? body.enterprise_id,
    isEnterpriseInstall: context.isEnterpriseInstall ?? false,
  };
  await handled(deps, { event, team: query.teamId ?? "" }, async () => {
    await forgetWorkspace(
      deps.stores,
      async (teamId) => {
        await deps.payments.forgetCached(teamId);
        await deps.watches.forgetTeam(teamId);
        await deps.feeds.removeTeam(teamId);
        await deps.history.forget(teamId);
        await deps.digests.removeTeam(teamId);
      },
      query,
    );
    return {
      log: { outcome: "forgotten", ...(query.enterpriseId ? { enterprise: query.enterpriseId } : {}) },
    };
  });
}

export const appUninstalled =
  (deps: ForgetDeps) =>
  async ({ body, context }: EventArgs<"app_uninstalled">): Promise<void> =>
    forget(deps, "app_uninstalled", body, context);

export const tokensRevoked =
  (deps: ForgetDeps) =>
  async ({ event, body, context }: EventArgs<"tokens_revoked">): Promise<void> => {
    // Only the bot token matters: Kassa keeps no user tokens.
    if ((event.tokens.bot ?? []).length === 0) return;
    await forget(deps, "tokens_revoked", body, context);
  };
