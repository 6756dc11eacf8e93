import type { webApi } from "@slack/bolt";
import type { ListenerDeps } from "../deps.js";

/** What checkManager uses: ADMIN_USER_IDS, the installer on record, and the log. */
export type ManagerDeps = Pick<ListenerDeps, "adminUserIds" | "stores" | "logger">;

export type Manager = { allowed: boolean; why: string };

/**
 * Who may connect, change or disconnect the cash register: people the operator lists in
 * ADMIN_USER_IDS, the person who installed Kassa (for this workspace, or for its Enterprise Grid
 * org: the lookup falls back to the org's install when given the enterprise id), and workspace
 * admins and owners (users.info).
 */
export async function checkManager(
  deps: ManagerDeps,
  client: webApi.WebClient,
  who: { userId: string; teamId: string; enterpriseId?: string | undefined },
): Promise<Manager> {
  if (deps.adminUserIds.includes(who.userId)) return { allowed: true, why: "ADMIN_USER_IDS" };
  const installer = await deps.stores.installations.installerUserId({
    teamId: who.teamId,
    enterpriseId: who.enterpriseId,
    isEnterpriseInstall: false,
  });
  if (installer === who.userId) return { allowed: true, why: "installer" };
  try {
    const { user } = await client.users.info({ user: who.userId });
    if (user?.is_primary_owner) return { allowed: true, why: "primary owner" };
    if (user?.is_owner) return { allowed: true, why: "owner" };
    if (user?.is_admin) return { allowed: true, why: "admin" };
    return { allowed: false, why: "not an admin" };
  } catch (error) {
    // Without users:read (or with Slack down) nobody is treated as an admin: refuse, and say why in the log.
    deps.logger.warn(
      { team: who.teamId, user: who.userId, err: error },
      "users.info failed while checking an admin",
    );
    return { allowed: false, why: "users.info failed" };
  }
}

/** A lazy "may this user connect?" for answer(): asked only when a reply offers a Connect button. */
export function canManageCheck(
  deps: ManagerDeps,
  client: webApi.WebClient,
  who: { userId: string; teamId: string; enterpriseId?: string | undefined },
): () => Promise<boolean> {
  return async () => (await checkManager(deps, client, who)).allowed;
}

/**
 * Who may see single invoices' money and descriptions (exports, the largest payments): the people
 * who may see `/balance`, as the workspace chose in the connect form (admins unless everyone).
 */
export async function checkMoneyReader(
  deps: ManagerDeps,
  client: webApi.WebClient,
  who: { userId: string; teamId: string; enterpriseId?: string | undefined },
): Promise<Manager> {
  const settings = await deps.stores.settings.get(who.teamId);
  if (settings.balanceVisibility === "everyone") return { allowed: true, why: "everyone" };
  return checkManager(deps, client, who);
}
