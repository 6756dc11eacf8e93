import { recordAct } from "../../audit/index.js";
import { forgetOrgWorkspace, forgetWorkspace } from "../../store/index.js";
import { handled } from "../contexts/handled.js";
import type { ListenerDeps } from "../deps.js";
import type { EventArgs } from "../router.js";
import { forgetRegisterWork } from "../workspace/forget.js";

type ForgetDeps = Pick<
  ListenerDeps,
  | "stores"
  | "payments"
  | "watches"
  | "logger"
  | "feeds"
  | "inFlight"
  | "history"
  | "digests"
  | "payoutPolicies"
  | "balanceAlerts"
  | "methodWatches"
  | "methodSwitches"
  | "audit"
>;

/**
 * app_uninstalled, and tokens_revoked for the bot token, leave nothing behind: installation,
 * credentials, settings, cached data, the kept history, live cards, feeds and digests; for an
 * org-wide install, those of every workspace of the org. Slack may deliver an event more than once;
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
    const teams = await forgetWorkspace(deps.stores, forgetRegisterWork(deps), query);
    // The trail stays (it is the record of the uninstall) until its days are up.
    for (const team of teams) await recordUninstall(deps, team, event);
    return {
      log: {
        outcome: "forgotten",
        ...(query.enterpriseId ? { enterprise: query.enterpriseId } : {}),
        ...(query.isEnterpriseInstall ? { workspaces: teams.length } : {}),
      },
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

/**
 * An org-wide install taken out of one workspace of the org: that workspace's cash register,
 * settings, cached data, live cards and feeds go; the org's installation stays for the others.
 */
export const appUninstalledTeam =
  (deps: ForgetDeps) =>
  async ({ event, context }: EventArgs<"app_uninstalled_team">): Promise<void> => {
    await handled(deps, { event: "app_uninstalled_team", team: event.team_id }, async () => {
      await forgetOrgWorkspace(deps.stores, forgetRegisterWork(deps), event.team_id);
      await recordUninstall(deps, event.team_id, "app_uninstalled_team");
      return {
        log: { outcome: "forgotten", ...(context.enterpriseId ? { enterprise: context.enterpriseId } : {}) },
      };
    });
  };

/** The uninstall, in the workspace's audit trail: Slack says it happened, Kassa forgot the rest. */
function recordUninstall(
  deps: Pick<ForgetDeps, "audit" | "logger">,
  team: string,
  event: string,
): Promise<void> {
  return recordAct(deps.audit, deps.logger, {
    team,
    actor: "kassa",
    action: "app.uninstalled",
    object: event,
    outcome: "done",
  });
}
