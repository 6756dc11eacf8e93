import type { webApi } from "@slack/bolt";
import type { BalanceVisibility } from "../../blocks/balance.js";
import { connectModal } from "../../blocks/connect-modal.js";
import { homeView } from "../../blocks/home.js";
import type { ReplyVisibility } from "../../blocks/invoice.js";
import type { HelpFacts } from "../../blocks/replies.js";
import { instantStatus } from "../../callbacks/keys.js";
import { DEFAULT_LANG, type Lang } from "../../i18n/lang.js";
import { MAIN_REGISTER, registerKey } from "../../store/registers.js";
import type { ListenerDeps } from "../deps.js";
import { feedLines } from "../feeds/lines.js";
import { homePayouts } from "../payouts/home.js";
import { checkManager, type ManagerDeps } from "./permissions.js";

/** Where a connect modal was opened from, kept in private_metadata (no secrets). */
/** Where a connect form came from, its workspace and the register it edits (main when left out). */
export type ModalOrigin = { from: "command" | "home"; t: string; r?: string | undefined };

/** The workspace's reply visibility: its own setting, else REPLY_VISIBILITY. */
export async function visibilityFor(
  deps: Pick<ListenerDeps, "stores" | "replyVisibility">,
  teamId: string,
): Promise<ReplyVisibility> {
  return (await deps.stores.settings.get(teamId)).replyVisibility ?? deps.replyVisibility;
}

/** The language Kassa writes in for the workspace: its own setting, else English. */
export async function langFor(deps: Pick<ListenerDeps, "stores">, teamId: string): Promise<Lang> {
  return (await deps.stores.settings.get(teamId)).language ?? DEFAULT_LANG;
}

/** Who may see `/balance` in the workspace: admins only until an admin chooses everyone. */
export async function balanceVisibilityFor(
  deps: Pick<ListenerDeps, "stores">,
  teamId: string,
): Promise<BalanceVisibility> {
  return (await deps.stores.settings.get(teamId)).balanceVisibility ?? "admins";
}

/** Who may create invoices (`/invoice new`): admins only until an admin chooses everyone. */
export async function invoiceCreatorsFor(
  deps: Pick<ListenerDeps, "stores">,
  teamId: string,
): Promise<BalanceVisibility> {
  return (await deps.stores.settings.get(teamId)).invoiceCreators ?? "admins";
}

/** What this workspace does, for `/invoice help` and `/paymethods help`. */
export async function helpFactsFor(
  deps: Pick<ListenerDeps, "stores" | "replyVisibility" | "watches">,
  teamId: string,
): Promise<HelpFacts> {
  return { visibility: await visibilityFor(deps, teamId), liveCards: deps.watches.maxPerWorkspace > 0 };
}

/** Opens the connect modal filled with what is stored (never the secret). */
export async function openConnectModal(
  deps: Pick<ListenerDeps, "stores" | "replyVisibility" | "defaultApiVersion">,
  client: webApi.WebClient,
  triggerId: string,
  origin: ModalOrigin,
): Promise<void> {
  const register = origin.r ?? MAIN_REGISTER;
  const [connection, visibility, balanceVisibility, invoiceCreators, lang, settings, directory] =
    await Promise.all([
      deps.stores.credentials.get(registerKey(origin.t, origin.r ?? MAIN_REGISTER)).catch(() => undefined),
      visibilityFor(deps, origin.t),
      balanceVisibilityFor(deps, origin.t),
      invoiceCreatorsFor(deps, origin.t),
      langFor(deps, origin.t),
      deps.stores.settings.get(origin.t),
      deps.stores.registers.get(origin.t),
    ]);
  await client.views.open({
    trigger_id: triggerId,
    view: connectModal({
      register,
      channels: directory.limits[register],
      login: connection?.login,
      hasSecret: connection !== undefined,
      hasSalt: connection?.hasSalt,
      apiVersion: connection?.apiVersion ?? deps.defaultApiVersion,
      visibility,
      balanceVisibility,
      invoiceCreators,
      workflowCreates: settings.workflowCreates,
      privateMetadata: JSON.stringify(origin),
      lang,
    }),
  });
}

/** Publishes the App Home tab for one user, with the manage buttons when that user may manage. */
export async function publishHome(
  deps: Pick<
    ListenerDeps,
    "stores" | "replyVisibility" | "defaultApiVersion" | "adminUserIds" | "logger" | "callbacks" | "feeds"
  > &
    Partial<Pick<ListenerDeps, "payouts" | "payoutPolicies">>,
  client: webApi.WebClient,
  who: { userId: string; teamId: string; enterpriseId?: string | undefined },
): Promise<void> {
  const registers = deps.stores.registers.others(who.teamId).then((others) => [MAIN_REGISTER, ...others]);
  // Read without opening the secret: one sealed with another key is shown as such, not an error.
  const [info, visibility, manager, lang, feeds, payouts] = await Promise.all([
    deps.stores.credentials.info(who.teamId),
    visibilityFor(deps, who.teamId),
    checkManager(deps, client, who),
    langFor(deps, who.teamId),
    registers.then((names) => feedLines(deps, who.teamId, names)),
    registers.then(async (names) => ({
      several: names.length > 1,
      parts: await homePayouts(deps, who.teamId, names),
    })),
  ]);
  const instant = info?.otherKey ? undefined : await instantStatus(deps.callbacks, info);
  await client.views.publish({
    user_id: who.userId,
    view: homeView(info, {
      defaultVersion: deps.defaultApiVersion,
      visibility,
      canManage: manager.allowed,
      instant,
      feeds,
      teamId: who.teamId,
      lang,
      payouts,
    }),
  });
}

/** May this person create invoices in the workspace? Asked on the command and again on submit. */
export async function mayCreate(
  deps: ManagerDeps,
  client: webApi.WebClient,
  who: { userId: string; teamId: string; enterpriseId?: string | undefined },
): Promise<{ allowed: boolean; why: string }> {
  if ((await invoiceCreatorsFor(deps, who.teamId)) === "everyone") return { allowed: true, why: "everyone" };
  return checkManager(deps, client, who);
}
