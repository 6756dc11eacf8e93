import type { AnyMiddlewareArgs, Middleware } from "@slack/bolt";
import type { KeyvInstallationStore } from "../store/installations.js";
import type { Logger } from "../util/logger.js";

/** Events that end a workspace's or an org's install: nothing is written down for them. */
const LEAVING = new Set(["app_uninstalled", "tokens_revoked", "app_uninstalled_team"]);

/**
 * Global middleware (OAuth): notes which Enterprise Grid org each workspace of an org-wide install
 * belongs to, from the first request of that workspace Bolt authorised with the org's install. Work
 * that knows a workspace only (live cards, the feed and its digests) finds the org's token through
 * it, and an org's uninstall finds its workspaces. Written once per workspace and process, without
 * holding up the request: Slack's 3 s start before any store write.
 */
export function noteOrgWorkspaces(
  installations: Pick<KeyvInstallationStore, "noteOrgWorkspace">,
  logger: Logger,
): Middleware<AnyMiddlewareArgs> {
  return async ({ context, body, next }) => {
    const { teamId, enterpriseId, isEnterpriseInstall } = context;
    const event = (body as { event?: { type?: unknown } }).event?.type;
    if (
      isEnterpriseInstall &&
      enterpriseId &&
      teamId &&
      teamId !== enterpriseId &&
      !LEAVING.has(String(event))
    )
      installations.noteOrgWorkspace(teamId, enterpriseId).catch((error: unknown) => {
        logger.warn(
          { team: teamId, enterprise: enterpriseId, err: error },
          "could not note an org's workspace",
        );
      });
    await next();
  };
}
