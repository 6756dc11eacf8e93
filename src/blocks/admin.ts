import type { types } from "@slack/bolt";
import { ADMIN_TEXT, type ManagedAction } from "../i18n/admin.js";
import { LANG_NAMES, type Lang } from "../i18n/lang.js";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import type { BalanceVisibility } from "./balance.js";
import { disconnectButton } from "./button-values.js";
import { ADMIN_ACTIONS } from "./ids.js";
import type { ReplyVisibility } from "./invoice.js";
import type { SlackMessage } from "./message.js";
import { safeText } from "./mrkdwn.js";
import { ephemeral, serviceWords } from "./replies.js";
import { type FeedLine, feedSections, feedsLine, type InstantStatus, instantLine } from "./status-lines.js";

export { ADMIN_ACTIONS, CONNECT_VIEW } from "./ids.js";
export { type FeedLine, type InstantStatus, instantLine } from "./status-lines.js";

/** "sh***er": enough to recognise a login, not enough to reuse it. */
export function maskLogin(login: string): string {
  if (login.length <= 4) return `${login.slice(0, 1)}***`;
  return `${login.slice(0, 2)}***${login.slice(-2)}`;
}

function isoToEpoch(iso: string): number {
  return Math.floor(Date.parse(iso) / 1000);
}

/** One paragraph on who connected what and when, for status replies and App Home. */
export function connectionSummary(
  info: ConnectionInfo | undefined,
  defaultVersion: ApiVersion,
  lang: Lang = "en",
): string {
  const t = ADMIN_TEXT[lang];
  if (!info) return t.notConnected;
  const by =
    info.connectedBy && /^[UW][A-Z0-9]+$/.test(info.connectedBy)
      ? `<@${info.connectedBy}>`
      : safeText(info.connectedBy ?? t.anOperator, 40);
  const when = `<!date^${isoToEpoch(info.connectedAt)}^{date_short_pretty} {time}|${info.connectedAt}>`;
  const login = `\`${safeText(maskLogin(info.login), 40)}\``;
  return t.connected(login, by, when, info.apiVersion ?? t.defaultApi(defaultVersion));
}

/** What is wrong when the stored secret was sealed with another key, and the two ways out. */
export function otherKeyLines(canManage: boolean, lang: Lang = "en"): string[] {
  const t = ADMIN_TEXT[lang];
  return [t.otherKey, canManage ? t.otherKeyManage : t.otherKeyAsk];
}

/** Any command met credentials sealed with another key: said plainly, with the way out. */
export function credentialsKeyMessage(canManage: boolean, lang: Lang = "en"): SlackMessage {
  const t = ADMIN_TEXT[lang];
  return withConnectButton(
    ephemeral(otherKeyLines(canManage, lang).join("\n"), t.otherKeyFallback),
    t.reconnect,
    canManage,
  );
}

export function statusMessage(
  info: ConnectionInfo | undefined,
  options: {
    defaultVersion: ApiVersion;
    visibility: ReplyVisibility;
    canManage: boolean;
    balanceVisibility?: BalanceVisibility | undefined;
    invoiceCreators?: BalanceVisibility | undefined;
    /** Whether workflows may create invoices (the Create invoice step). */
    workflowsCreate?: boolean | undefined;
    /** Live cards: how many invoices the workspace has watched. */
    watched?: number;
    /** Instant notifications (the payment service's callbacks); the address only for managers. */
    instant?: InstantStatus | undefined;
    /** Channels with the payment feed, what each posts, and why one is quiet; teamId for their Settings. */
    feeds?: FeedLine[] | undefined;
    teamId?: string | undefined;
    /** The workspace's language (English by default). */
    lang?: Lang;
  },
): SlackMessage {
  const lang = options.lang ?? "en";
  const t = ADMIN_TEXT[lang];
  const lines = [
    connectionSummary(info, options.defaultVersion, lang),
    ...(info?.otherKey ? otherKeyLines(options.canManage, lang) : []),
    t.goes(options.visibility === "private"),
    t.languageLine(LANG_NAMES[lang]),
  ];
  if (options.watched !== undefined) lines.push(t.watched(options.watched));
  if (info && options.instant) lines.push(instantLine(options.instant, options.canManage, lang));
  if (options.feeds?.length === 0) lines.push(feedsLine(options.feeds, lang));
  if (options.balanceVisibility) lines.push(t.balanceTo(options.balanceVisibility === "everyone"));
  if (options.invoiceCreators) lines.push(t.creatorsTo(options.invoiceCreators === "everyone"));
  if (options.workflowsCreate !== undefined) lines.push(t.workflowsCreate(options.workflowsCreate));
  lines.push(options.canManage ? (info ? t.changeIt : t.connectIt) : t.adminsCanChange);
  const message = ephemeral(lines.join("\n"), t.statusFallback(info !== undefined));
  const feeds = feedSections(
    options.feeds ?? [],
    { teamId: options.teamId ?? "", canManage: options.canManage && Boolean(options.teamId) },
    lang,
  );
  return { ...message, blocks: [...message.blocks, ...feeds] };
}

/** What the Connect button carries: where it was pressed, so a refusal is answered there. */
export const CONNECT_FROM = { home: "open", reply: "reply" } as const;

/** The button that opens the connect modal (App Home, and replies to people who may connect). */
export function connectButton(label: string, from: keyof typeof CONNECT_FROM, primary = true): types.Button {
  return {
    type: "button",
    action_id: ADMIN_ACTIONS.openConnect,
    text: { type: "plain_text", text: label },
    value: CONNECT_FROM[from],
    ...(primary ? { style: "primary" as const } : {}),
  };
}

/** Appends a Connect button for people who may connect; everyone else gets the text only. */
function withConnectButton(message: SlackMessage, label: string, canManage: boolean): SlackMessage {
  if (!canManage) return message;
  return {
    ...message,
    blocks: [
      ...message.blocks,
      { type: "actions", block_id: "connect", elements: [connectButton(label, "reply")] },
    ],
  };
}

/**
 * A lookup in a workspace with no cash register connected. Said to finance staff: who connects it and
 * how, in Slack; the operators' CLI belongs in docs/operating.md and the log, never here.
 */
export function notConnectedMessage(canManage: boolean, lang: Lang = "en"): SlackMessage {
  const t = ADMIN_TEXT[lang];
  return withConnectButton(
    ephemeral(
      [t.notConnectedLook, canManage ? t.notConnectedManage : t.notConnectedAsk].join("\n"),
      t.notConnectedFallback,
    ),
    t.connect,
    canManage,
  );
}

/** The service refused the stored login or secret (`Invalid auth credentials`). */
export function credentialsRefusedMessage(
  messages: string[],
  canManage: boolean,
  lang: Lang = "en",
): SlackMessage {
  const t = ADMIN_TEXT[lang];
  return withConnectButton(
    ephemeral(
      [t.refused(serviceWords(messages)), canManage ? t.refusedManage : t.refusedAsk].join("\n"),
      t.refusedFallback(messages.join("; ")),
    ),
    t.reconnect,
    canManage,
  );
}

export function notAllowedMessage(action: ManagedAction, lang: Lang = "en"): SlackMessage {
  const t = ADMIN_TEXT[lang];
  return ephemeral(t.notAllowed(t.actions[action]), t.notAllowedFallback(t.actions[action]));
}

export function disconnectConfirmMessage(
  info: ConnectionInfo,
  teamId: string,
  lang: Lang = "en",
  /** The register to disconnect, where the workspace has several (main's otherwise). */
  register?: string,
): SlackMessage {
  const t = ADMIN_TEXT[lang];
  const login = `\`${safeText(maskLogin(info.login), 40)}\``;
  return {
    response_type: "ephemeral",
    text: t.disconnectFallback,
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: t.disconnectQuestion(register === undefined ? login : `*${register}* (${login})`),
        },
      },
      {
        type: "actions",
        block_id: "disconnect",
        elements: [
          {
            type: "button",
            action_id: ADMIN_ACTIONS.disconnect,
            style: "danger",
            text: { type: "plain_text", text: t.disconnect },
            value: disconnectButton.write({ t: teamId, ...(register === undefined ? {} : { r: register }) }),
          },
          {
            type: "button",
            action_id: ADMIN_ACTIONS.cancel,
            text: { type: "plain_text", text: t.cancel },
            value: "cancel",
          },
        ],
      },
    ],
  };
}

export function disconnectedMessage(userId: string, lang: Lang = "en"): SlackMessage {
  const t = ADMIN_TEXT[lang];
  return ephemeral(t.disconnected(`<@${userId}>`), t.disconnectedFallback);
}

export function nothingToDisconnectMessage(lang: Lang = "en"): SlackMessage {
  return ephemeral(ADMIN_TEXT[lang].nothingToDisconnect, ADMIN_TEXT[lang].nothingToDisconnectFallback);
}
