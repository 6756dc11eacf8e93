import type { webApi } from "@slack/bolt";
import {
  disconnectConfirmMessage,
  notAllowedMessage,
  nothingToDisconnectMessage,
  statusMessage,
} from "../../blocks/admin.js";
import { feedUnsubscribedMessage } from "../../blocks/feed.js";
import { registerListBlock } from "../../blocks/registers.js";
import { ephemeral } from "../../blocks/replies.js";
import { instantStatus } from "../../callbacks/keys.js";
import { ADMIN_TEXT } from "../../i18n/admin.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { slackErrorCode } from "../../slack/error.js";
import { workflowsMayCreate } from "../../store/settings.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { feedLines } from "../feeds/lines.js";
import { readerZone } from "../replies/invoice-summary.js";
import { checkManager } from "../workspace/permissions.js";
import { type ChosenRegister, registerLines } from "../workspace/register.js";
import {
  balanceVisibilityFor,
  invoiceCreatorsFor,
  openConnectModal,
  visibilityFor,
} from "../workspace/settings.js";
import type { AdminAction } from "./invoice-text.js";

type AdminCommand = {
  lang: Lang;
  teamId: string;
  userId: string;
  enterpriseId?: string | undefined;
  triggerId: string;
  channelId: string;
  /** The register the command names or its channel uses; main's when left out. */
  register?: ChosenRegister | undefined;
};

type AdminDeps = Pick<
  ListenerDeps,
  | "adminUserIds"
  | "stores"
  | "logger"
  | "replyVisibility"
  | "watches"
  | "defaultApiVersion"
  | "callbacks"
  | "feeds"
  | "now"
>;

/** What a person who may not manage is told they cannot do, per action. */
const REFUSED_AS: Record<Exclude<AdminAction, "status">, Parameters<typeof notAllowedMessage>[0]> = {
  connect: "connect",
  "rotate-callback": "callback",
  unsubscribe: "feed",
  "language-en": "language",
  "language-ru": "language",
  disconnect: "disconnect",
};

/** `/invoice connect | disconnect | status`: the reply (null when a modal answered) and its outcome. */
export async function runAdminCommand(
  deps: AdminDeps,
  client: webApi.WebClient,
  action: AdminAction,
  command: AdminCommand,
  note: Note,
): Promise<Produced> {
  note({ action });
  const { lang } = command;
  const who = { userId: command.userId, teamId: command.teamId, enterpriseId: command.enterpriseId };
  const manager = await checkManager(deps, client, who);
  note({ manager: manager.why });

  if (action === "status") return adminStatus(deps, command, manager.allowed, lang);
  if (!manager.allowed)
    return { reply: notAllowedMessage(REFUSED_AS[action], lang), log: { outcome: "not_allowed" } };
  switch (action) {
    case "language-en":
    case "language-ru":
      return setLanguage(deps, command, action === "language-ru" ? "ru" : "en", lang, note);
    case "rotate-callback":
      return rotateCallback(deps, command.register?.key ?? command.teamId, lang);
    case "unsubscribe":
      return unsubscribeChannel(deps, command, lang);
    case "connect":
      return openConnect(deps, client, command, lang);
    case "disconnect":
      return askDisconnect(deps, command, lang);
  }
}

/** `/invoice status`: the register's connection, its settings and feeds (and the registers, where several). */
async function adminStatus(
  deps: AdminDeps,
  command: AdminCommand,
  canManage: boolean,
  lang: Lang,
): Promise<Produced> {
  // Read without opening the secret: a secret sealed with another key is reported, not an error.
  const connection = await deps.stores.credentials.info(command.teamId);
  const instant = connection?.otherKey ? undefined : await instantStatus(deps.callbacks, connection);
  const [visibility, watched] = await Promise.all([
    visibilityFor(deps, command.teamId),
    deps.watches.count(command.teamId),
  ]);
  const reply = statusMessage(connection, {
    defaultVersion: deps.defaultApiVersion,
    visibility,
    canManage,
    watched,
    balanceVisibility: await balanceVisibilityFor(deps, command.teamId),
    invoiceCreators: await invoiceCreatorsFor(deps, command.teamId),
    workflowsCreate: workflowsMayCreate(await deps.stores.settings.get(command.teamId)),
    instant,
    feeds: await feedLines(deps, command.teamId, command.register?.all),
    teamId: command.teamId,
    lang,
  });
  if (!command.register?.several) return { reply, log: { outcome: "ok" } };
  const registers = registerListBlock(await registerLines(deps.stores, command.teamId), lang);
  return { reply: { ...reply, blocks: [...reply.blocks.slice(0, 49), registers] }, log: { outcome: "ok" } };
}

/** `/invoice language en | ru`: the workspace's language, told in the language chosen. */
async function setLanguage(
  deps: AdminDeps,
  command: AdminCommand,
  chosen: Lang,
  lang: Lang,
  note: Note,
): Promise<Produced> {
  note({ audit: { object: "language", before: { language: lang }, after: { language: chosen } } });
  await deps.stores.settings.update(command.teamId, { language: chosen });
  const reply = ephemeral(ADMIN_TEXT[chosen].languageSet, ADMIN_TEXT[chosen].languageSetFallback);
  return { reply, log: { outcome: "ok" } };
}

/** `/invoice unsubscribe`: this channel's feed of the register stops. */
async function unsubscribeChannel(deps: AdminDeps, command: AdminCommand, lang: Lang): Promise<Produced> {
  const removed = await deps.feeds.unsubscribe(command.register?.key ?? command.teamId, command.channelId);
  const reply = feedUnsubscribedMessage(removed, lang);
  if (!removed) return { reply, log: { outcome: "ok" } };
  return { reply, log: { outcome: "feed_unsubscribed", channel: command.channelId } };
}

/** `/invoice connect`: the connect form (null: the modal answered), or why it did not open. */
async function openConnect(
  deps: AdminDeps,
  client: webApi.WebClient,
  command: AdminCommand,
  lang: Lang,
): Promise<Produced> {
  try {
    await openConnectModal(deps, client, command.triggerId, {
      from: "command",
      t: command.teamId,
      ...(command.register ? { r: command.register.name } : {}),
    });
  } catch (error) {
    const reply = ephemeral(
      NOTICES_TEXT[lang].formNotOpened("/invoice connect"),
      NOTICES_TEXT[lang].formNotOpenedFallback("/invoice connect"),
    );
    return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
  }
  return { reply: null, log: { outcome: "modal_opened" } };
}

/** `/invoice disconnect`: asks to confirm (nothing to confirm when the register is not connected). */
async function askDisconnect(deps: AdminDeps, command: AdminCommand, lang: Lang): Promise<Produced> {
  const key = command.register?.key ?? command.teamId;
  const connection = await deps.stores.credentials.get(key);
  if (!connection) return { reply: nothingToDisconnectMessage(lang), log: { outcome: "ok" } };
  const named = command.register?.several ? command.register.name : undefined;
  const reply = disconnectConfirmMessage(connection, command.teamId, lang, named);
  return { reply, log: { outcome: "confirm_asked" } };
}

/** `/invoice callback rotate`: a new address; callbacks to the old one are refused from now on. */
async function rotateCallback(
  deps: Pick<ListenerDeps, "callbacks" | "stores">,
  teamId: string,
  lang: Lang,
): Promise<Produced> {
  const connection = await deps.stores.credentials.get(teamId);
  const instant = await instantStatus(deps.callbacks, connection);
  if (!deps.callbacks || !instant || instant.kind !== "on") {
    const reply = ephemeral(NOTICES_TEXT[lang].noAddress, NOTICES_TEXT[lang].noAddressFallback);
    return { reply, log: { outcome: "ok" } };
  }
  const address = await deps.callbacks.rotate(teamId);
  const reply = ephemeral(NOTICES_TEXT[lang].newAddress(address), NOTICES_TEXT[lang].newAddressFallback);
  return { reply, log: { outcome: "callback_rotated" } };
}

/**
 * `/invoice digest HH:MM | off` in a feed channel (admins): yesterday's summary posted there each
 * day at that time, in the asker's timezone (Slack's, else the payment service's).
 */
export async function runDigestCommand(
  deps: Pick<ListenerDeps, "adminUserIds" | "stores" | "logger" | "feeds" | "now" | "serviceTimeZone">,
  client: webApi.WebClient,
  command: {
    teamId: string;
    userId: string;
    enterpriseId?: string | undefined;
    channelId: string;
    at: string | null;
    /** The register whose feed's digest this is; main's when left out. */
    register?: Pick<ChosenRegister, "key"> | undefined;
    lang: Lang;
  },
): Promise<Produced> {
  const manager = await checkManager(deps, client, command);
  const { lang } = command;
  if (!manager.allowed) return { reply: notAllowedMessage("digest", lang), log: { outcome: "not_allowed" } };
  const zone = command.at ? ((await readerZone(client, command.userId)) ?? deps.serviceTimeZone) : "";
  const digest = command.at ? { at: command.at, zone, since: deps.now().getTime() } : null;
  const key = command.register?.key ?? command.teamId;
  const set = await deps.feeds.setDigest(key, command.channelId, digest);
  if (!set) {
    const reply = ephemeral(NOTICES_TEXT[lang].digestNeedsFeed, NOTICES_TEXT[lang].digestNeedsFeedFallback);
    return { reply, log: { outcome: "ok" } };
  }
  const reply = digest
    ? ephemeral(
        NOTICES_TEXT[lang].digestOn(digest.at, zone),
        NOTICES_TEXT[lang].digestOnFallback(digest.at, zone),
      )
    : ephemeral(NOTICES_TEXT[lang].digestOff, NOTICES_TEXT[lang].digestOffFallback);
  return { reply, log: { outcome: "digest_set", digest: digest ? digest.at : "off" } };
}
