// Who is who and installs, as Slack answers them: users.info, auth.test and oauth.v2.access.

/** Roles users.info reports; a user not listed is an ordinary member. */
export type SlackUserRoles = {
  is_admin?: boolean;
  is_owner?: boolean;
  is_primary_owner?: boolean;
  tz?: string;
  /** An app's bot user, a deactivated account, a guest (multi- or single-channel). */
  is_bot?: boolean;
  deleted?: boolean;
  is_restricted?: boolean;
  is_ultra_restricted?: boolean;
};

/** What the next OAuth install (oauth.v2.access) hands over. */
export type SlackInstallGrant = {
  teamId: string;
  userId: string;
  enterpriseId?: string;
  isEnterpriseInstall?: boolean;
  /** Token rotation on: the bot token expires after this many seconds and comes with a refresh token. */
  expiresIn?: number;
};

export const SANDBOX_TEAM = { id: "T0SANDBOX", domain: "sandbox-finance" };
export const SANDBOX_BOT = { userId: "U0KASSABOT", botId: "B0KASSABOT" };

/**
 * The stand-in's answers about people and installs: users.info with the roles set here (or the error
 * set in usersInfoError), auth.test for the sandbox bot, oauth.v2.access for the next install and for
 * token rotation. The stand-in records each call before it asks here.
 */
export class SlackIdentity {
  /** users.info answers with these roles; edit freely between calls. */
  users: Record<string, SlackUserRoles> = {};
  /** oauth.v2.access answers with this grant. */
  nextInstall: SlackInstallGrant = { teamId: SANDBOX_TEAM.id, userId: "U0INSTALLER" };
  /** Make users.info fail (e.g. "missing_scope"), or succeed again with null. */
  usersInfoError: string | null = null;
  private rotations = 0;

  /** Slack's answer to one of these methods; undefined for any other method. */
  answer(method: string, body: Record<string, unknown>): Record<string, unknown> | undefined {
    if (method === "users.info") {
      if (this.usersInfoError) return { ok: false, error: this.usersInfoError };
      const id = String(body.user ?? "");
      const roles = this.users[id] ?? {};
      return {
        ok: true,
        user: {
          id,
          team_id: SANDBOX_TEAM.id,
          name: id.toLowerCase(),
          is_admin: false,
          is_owner: false,
          is_primary_owner: false,
          ...roles,
        },
      };
    }
    if (method === "oauth.v2.access" && body.grant_type === "refresh_token") {
      this.rotations += 1;
      return {
        ok: true,
        token_type: "bot",
        access_token: `xoxe.xoxb-rotated-${this.rotations}`,
        refresh_token: `xoxe-1-refresh-${this.rotations}`,
        expires_in: 43_200,
      };
    }
    if (method === "oauth.v2.access") {
      const grant = this.nextInstall;
      return {
        ok: true,
        app_id: "A0KASSA",
        authed_user: { id: grant.userId },
        scope: "commands,users:read,chat:write,chat:write.public",
        token_type: "bot",
        access_token: `xoxb-installed-${grant.teamId}-secret-token`,
        bot_user_id: SANDBOX_BOT.userId,
        team: grant.isEnterpriseInstall ? null : { id: grant.teamId, name: "Installed Team" },
        enterprise: grant.enterpriseId ? { id: grant.enterpriseId, name: "Grid Org" } : null,
        is_enterprise_install: grant.isEnterpriseInstall ?? false,
        ...(grant.expiresIn === undefined
          ? {}
          : { refresh_token: "xoxe-1-refresh-0", expires_in: grant.expiresIn }),
      };
    }
    if (method === "auth.test") {
      return {
        ok: true,
        url: `https://${SANDBOX_TEAM.domain}.slack.com/`,
        team: "Sandbox Finance",
        user: "kassa",
        team_id: SANDBOX_TEAM.id,
        user_id: SANDBOX_BOT.userId,
        bot_id: SANDBOX_BOT.botId,
      };
    }
    return undefined;
  }
}
