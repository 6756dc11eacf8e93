import type { types } from "@slack/bolt";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import type { BalanceVisibility } from "./balance.js";
import type { ReplyVisibility } from "./invoice.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { safeText, truncate } from "./mrkdwn.js";
import { ephemeral, serviceWords, WHO_MAY_MANAGE } from "./replies.js";

export const CONNECT_VIEW = "kassa_connect";
export const ADMIN_ACTIONS = {
  openConnect: "kassa_open_connect",
  disconnect: "kassa_disconnect",
  cancel: "kassa_disconnect_cancel",
} as const;
/** Block ids of the connect modal's inputs; response_action errors are keyed by them. */
export const CONNECT_FIELDS = {
  login: "login",
  secret: "secret",
  apiVersion: "api_version",
  visibility: "visibility",
  balanceVisibility: "balance_visibility",
  invoiceCreators: "invoice_creators",
} as const;
const VALUE = "value";

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
  },
): SlackMessage {
  const lines = [
    connectionSummary(info, options.defaultVersion),
    `Invoice cards and method lists go ${options.visibility === "private" ? "privately to the asker (with a Share button)" : "to the channel"}.`,
  ];
  if (options.watched !== undefined) {
    lines.push(`Invoices being watched for live cards: ${options.watched === 0 ? "none" : options.watched}.`);
  }
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
function connectButton(label: string, from: keyof typeof CONNECT_FROM, primary = true): types.Button {
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
 * how, in Slack; the operators' CLI belongs in the README and the log, never here.
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
            value: JSON.stringify({ t: teamId }),
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

type ConnectForm = {
  login?: string | undefined;
  hasSecret: boolean;
  apiVersion: ApiVersion;
  visibility: ReplyVisibility;
  /** Who may see /balance; admins when not given. */
  balanceVisibility?: BalanceVisibility | undefined;
  /** Who may create invoices with /invoice new; admins when not given. */
  invoiceCreators?: BalanceVisibility | undefined;
  /** Shown under the secret when the check could only finish after the form was answered. */
  error?: string | undefined;
  privateMetadata: string;
};

const option = (text: string, value: string): types.PlainTextOption => ({
  text: { type: "plain_text", text },
  value,
});

/** The connect modal. The secret is never put back into it; blank keeps the stored one. */
export function connectModal(form: ConnectForm): types.ModalView {
  const versions = [option("v2", "v2"), option("v3", "v3")];
  const visibilities = [
    option("In the channel", "channel"),
    option("Privately, with a Share button", "private"),
  ];
  const balanceViewers = [option("Admins only", "admins"), option("Everyone in the workspace", "everyone")];
  const creators = [option("Admins only", "admins"), option("Everyone in the workspace", "everyone")];
  const blocks: types.KnownBlock[] = [
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: "Connect this workspace to its CrystalPay cash register. The login and secret are checked with the payment service before anything is saved; the secret is stored encrypted and never shown again.",
      },
    },
    {
      type: "input",
      block_id: CONNECT_FIELDS.login,
      label: { type: "plain_text", text: "Cash register login" },
      element: {
        type: "plain_text_input",
        action_id: VALUE,
        max_length: 200,
        ...(form.login ? { initial_value: truncate(form.login, 200) } : {}),
      },
    },
    {
      type: "input",
      block_id: CONNECT_FIELDS.secret,
      optional: form.hasSecret,
      label: { type: "plain_text", text: "Secret (Secret 1)" },
      hint: {
        type: "plain_text",
        text: form.hasSecret
          ? "Leave blank to keep the stored secret."
          : "From the cash register's settings in CrystalPay.",
      },
      element: { type: "plain_text_input", action_id: VALUE, max_length: 500 },
    },
  ];
  if (form.error) {
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: `:warning: ${safeText(form.error, 1900)}` }],
    });
  }
  blocks.push(
    {
      type: "input",
      block_id: CONNECT_FIELDS.apiVersion,
      label: { type: "plain_text", text: "API version" },
      element: {
        type: "static_select",
        action_id: VALUE,
        options: versions,
        initial_option: versions.find((entry) => entry.value === form.apiVersion) ?? versions[0],
      },
    },
    {
      type: "input",
      block_id: CONNECT_FIELDS.visibility,
      label: { type: "plain_text", text: "Where invoice cards and method lists go" },
      element: {
        type: "radio_buttons",
        action_id: VALUE,
        options: visibilities,
        initial_option: visibilities.find((entry) => entry.value === form.visibility) ?? visibilities[0],
      },
    },
    {
      type: "input",
      block_id: CONNECT_FIELDS.balanceVisibility,
      label: { type: "plain_text", text: "Who may see the balance (/balance)" },
      hint: {
        type: "plain_text",
        text: "Admins: workspace admins and owners, the installer and the operator's list. The reply is always visible only to the asker.",
      },
      element: {
        type: "radio_buttons",
        action_id: VALUE,
        options: balanceViewers,
        initial_option:
          balanceViewers.find((entry) => entry.value === form.balanceVisibility) ?? balanceViewers[0],
      },
    },
    {
      type: "input",
      block_id: CONNECT_FIELDS.invoiceCreators,
      label: { type: "plain_text", text: "Who may create invoices (/invoice new)" },
      hint: {
        type: "plain_text",
        text: "Admins: the same people as above. A created invoice is a real payment link of the cash register.",
      },
      element: {
        type: "radio_buttons",
        action_id: VALUE,
        options: creators,
        initial_option: creators.find((entry) => entry.value === form.invoiceCreators) ?? creators[0],
      },
    },
  );
  return {
    type: "modal",
    callback_id: CONNECT_VIEW,
    title: { type: "plain_text", text: "Connect cash register" },
    submit: { type: "plain_text", text: "Check and save" },
    close: { type: "plain_text", text: "Cancel" },
    private_metadata: truncate(form.privateMetadata, 3000),
    blocks,
  };
}

function noticeModal(title: string, mrkdwn: string): types.ModalView {
  return {
    type: "modal",
    callback_id: `${CONNECT_VIEW}_notice`,
    title: { type: "plain_text", text: truncate(title, 24) },
    close: { type: "plain_text", text: "Close" },
    blocks: [{ type: "section", text: { type: "mrkdwn", text: truncate(mrkdwn, LIMITS.sectionText) } }],
  };
}

export function checkingModal(): types.ModalView {
  return noticeModal(
    "Checking…",
    ":hourglass_flowing_sand: Checking the login and secret with the payment service. This takes a few seconds.",
  );
}

export function connectedModal(
  info: ConnectionInfo,
  methodCount: number,
  defaultVersion: ApiVersion,
): types.ModalView {
  return noticeModal(
    "Connected",
    `${connectionSummary(info, defaultVersion)}\nThe payment service accepted the credentials and lists ${methodCount} payment method${methodCount === 1 ? "" : "s"}. Try \`/invoice &lt;id&gt;\` or \`/paymethods\`.`,
  );
}

/** App Home: status, how to use both commands, and for people who may, the buttons to manage it. */
export function homeView(
  info: ConnectionInfo | undefined,
  options: { defaultVersion: ApiVersion; visibility: ReplyVisibility; canManage: boolean },
): types.HomeView {
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: "Kassa" } },
    { type: "section", text: { type: "mrkdwn", text: connectionSummary(info, options.defaultVersion) } },
  ];
  if (options.canManage) {
    const elements: types.Button[] = [
      info ? connectButton("Update", "home", false) : connectButton("Connect", "home"),
    ];
    if (info) {
      elements.push({
        type: "button",
        action_id: ADMIN_ACTIONS.disconnect,
        style: "danger",
        text: { type: "plain_text", text: "Disconnect" },
        value: "home",
        confirm: {
          title: { type: "plain_text", text: "Disconnect?" },
          text: {
            type: "mrkdwn",
            text: "The stored credentials are deleted; the commands stop working until someone connects again.",
          },
          confirm: { type: "plain_text", text: "Disconnect" },
          deny: { type: "plain_text", text: "Cancel" },
          style: "danger",
        },
      });
    }
    blocks.push({ type: "actions", block_id: "manage", elements });
  } else if (!info) {
    blocks.push({
      type: "context",
      elements: [
        {
          type: "mrkdwn",
          text: "A workspace admin or owner can connect it here or with `/invoice connect`.",
        },
      ],
    });
  }
  blocks.push(
    { type: "divider" },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: [
          "*How to use it*",
          "• `/invoice &lt;id or payment link&gt;`: an invoice's state, amounts with their currencies, commissions and times (in your timezone). *Refresh* updates the card.",
          "• `/paymethods [filter]`: the payment methods and what each costs; filter by code, name or currency (`btc`, `card`, `RUB`), or `enabled` / `disabled`.",
          "• `/invoice new [amount] [currency] [description]`: create an invoice (a payment link) in a form; its card is posted in the channel. Admins only unless an admin lets everyone (connection settings).",
          "• `/balance`: how much is on the cash register, per method and in total; only you see the reply, and only admins may ask unless an admin lets everyone (connection settings).",
          "• Paste a payment page link in a channel: Kassa adds a short card under it with the invoice's state, amount and expiry.",
          `• Invoice cards and method lists go ${options.visibility === "private" ? "privately to whoever asks, with a *Share in channel* button" : "to the channel"}.`,
          "• `/invoice status` shows the connection; `/invoice help`, `/paymethods help` and `/balance help` explain the rest.",
        ].join("\n"),
      },
    },
  );
  return { type: "home", blocks };
}
