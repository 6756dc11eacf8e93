import type { types } from "@slack/bolt";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import type { BalanceVisibility } from "./balance.js";
import { disconnectButton } from "./button-values.js";
import { ADMIN_ACTIONS } from "./ids.js";
import type { ReplyVisibility } from "./invoice.js";
import type { SlackMessage } from "./message.js";
import { safeText } from "./mrkdwn.js";
import { ephemeral, serviceWords, WHO_MAY_MANAGE } from "./replies.js";
import { type FeedLine, feedsLine, type InstantStatus, instantLine } from "./status-lines.js";

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
export function connectionSummary(info: ConnectionInfo | undefined, defaultVersion: ApiVersion): string {
  if (!info) return ":electric_plug: *Not connected.* No cash register is connected to this workspace yet.";
  const by =
    info.connectedBy && /^[UW][A-Z0-9]+$/.test(info.connectedBy)
      ? `<@${info.connectedBy}>`
      : safeText(info.connectedBy ?? "an operator", 40);
  const when = `<!date^${isoToEpoch(info.connectedAt)}^{date_short_pretty} {time}|${info.connectedAt}>`;
  return [
    `:white_check_mark: *Connected* to cash register \`${safeText(maskLogin(info.login), 40)}\``,
    `by ${by}, ${when}; API ${info.apiVersion ?? `${defaultVersion} (default)`}.`,
  ].join(" ");
}

/** What is wrong when the stored secret was sealed with another key, and the two ways out. */
export function otherKeyLines(canManage: boolean): string[] {
  return [
    ":key: *Kassa cannot open this cash register's secret:* it was saved with a different encryption key than the one Kassa is running with now, so no invoice, method list or balance can be read.",
    canManage
      ? "Two ways out: whoever runs Kassa restores the key it ran with when the cash register was connected (then everything works as before), or you reconnect now with the login and secret (settings are kept)."
      : "A workspace admin can fix it by reconnecting the cash register, or whoever runs Kassa by restoring its earlier key. Ask one of them.",
  ];
}

/** Any command met credentials sealed with another key: said plainly, with the way out. */
export function credentialsKeyMessage(canManage: boolean): SlackMessage {
  return withConnectButton(
    ephemeral(
      otherKeyLines(canManage).join("\n"),
      "Kassa cannot open this workspace's cash register secret: it was saved with a different encryption key. A workspace admin can reconnect it with /invoice connect.",
    ),
    "Reconnect",
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
    /** Live cards: how many invoices the workspace has watched. */
    watched?: number;
    /** Instant notifications (the payment service's callbacks); the address only for managers. */
    instant?: InstantStatus | undefined;
    /** Channels with the payment feed, and why one is quiet. */
    feeds?: FeedLine[] | undefined;
  },
): SlackMessage {
  const lines = [
    connectionSummary(info, options.defaultVersion),
    ...(info?.otherKey ? otherKeyLines(options.canManage) : []),
    `Invoice cards and method lists go ${options.visibility === "private" ? "privately to the asker (with a Share button)" : "to the channel"}.`,
  ];
  if (options.watched !== undefined) {
    lines.push(`Invoices being watched for live cards: ${options.watched === 0 ? "none" : options.watched}.`);
  }
  if (info && options.instant) lines.push(instantLine(options.instant, options.canManage));
  if (options.feeds) lines.push(feedsLine(options.feeds));
  if (options.balanceVisibility) {
    lines.push(
      `\`/balance\` is shown to ${options.balanceVisibility === "everyone" ? "everyone in the workspace" : "admins only"}, each time privately to the asker.`,
    );
  }
  if (options.invoiceCreators) {
    lines.push(
      `\`/invoice new\` (creating invoices) is open to ${options.invoiceCreators === "everyone" ? "everyone in the workspace" : "admins only"}.`,
    );
  }
  lines.push(
    options.canManage
      ? info
        ? "Change it with `/invoice connect`, or remove it with `/invoice disconnect`."
        : "Connect it with `/invoice connect`."
      : "Workspace admins and owners can change this.",
  );
  return ephemeral(
    lines.join("\n"),
    info ? "This workspace is connected to a cash register." : "No cash register is connected.",
  );
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
export function notConnectedMessage(canManage: boolean): SlackMessage {
  return withConnectButton(
    ephemeral(
      [
        ":electric_plug: Kassa is not connected to this workspace's cash register yet, so there is nothing to look up.",
        canManage
          ? "You can connect it now, or with `/invoice connect`."
          : "A workspace admin connects it with `/invoice connect`.",
      ].join("\n"),
      "Kassa is not connected to this workspace's cash register yet. A workspace admin connects it with /invoice connect.",
    ),
    "Connect",
    canManage,
  );
}

/** The service refused the stored login or secret (`Invalid auth credentials`). */
export function credentialsRefusedMessage(messages: string[], canManage: boolean): SlackMessage {
  return withConnectButton(
    ephemeral(
      [
        `:lock: The payment service answered “${serviceWords(messages)}”: it refused this workspace's cash register login or secret, so nothing can be looked up.`,
        canManage
          ? "You can reconnect it with the current login and secret now, or with `/invoice connect`."
          : "A workspace admin can reconnect it with `/invoice connect`.",
      ].join("\n"),
      `The payment service refused the cash register's login or secret (${messages.join("; ")}). A workspace admin can reconnect it with /invoice connect.`,
    ),
    "Reconnect",
    canManage,
  );
}

export function notAllowedMessage(what: string): SlackMessage {
  return ephemeral(
    `:lock: Only ${WHO_MAY_MANAGE} can ${what}. Ask one of them.`,
    `Only workspace admins and owners can ${what}.`,
  );
}

export function disconnectConfirmMessage(info: ConnectionInfo, teamId: string): SlackMessage {
  return {
    response_type: "ephemeral",
    text: "Disconnect the cash register?",
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `Disconnect cash register \`${safeText(maskLogin(info.login), 40)}\`? Its stored credentials are deleted; \`/invoice\`, \`/paymethods\` and \`/balance\` stop working until someone connects again.`,
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
            text: { type: "plain_text", text: "Disconnect" },
            value: disconnectButton.write({ t: teamId }),
          },
          {
            type: "button",
            action_id: ADMIN_ACTIONS.cancel,
            text: { type: "plain_text", text: "Cancel" },
            value: "cancel",
          },
        ],
      },
    ],
  };
}

export function disconnectedMessage(userId: string): SlackMessage {
  return ephemeral(
    `:electric_plug: Disconnected by <@${userId}>: the credentials are deleted. \`/invoice connect\` connects a cash register again.`,
    "The cash register was disconnected.",
  );
}

export function nothingToDisconnectMessage(): SlackMessage {
  return ephemeral(
    "No cash register is connected, so there is nothing to disconnect.",
    "Nothing to disconnect.",
  );
}
