import type { types } from "@slack/bolt";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import { connectButton, connectionSummary, type InstantStatus, instantLine, otherKeyLines } from "./admin.js";
import { ADMIN_ACTIONS } from "./ids.js";
import type { ReplyVisibility } from "./invoice.js";

/** App Home: status, how to use both commands, and for people who may, the buttons to manage it. */
export function homeView(
  info: ConnectionInfo | undefined,
  options: {
    defaultVersion: ApiVersion;
    visibility: ReplyVisibility;
    canManage: boolean;
    /** Instant notifications (callbacks); the address is shown to managers only. */
    instant?: InstantStatus | undefined;
  },
): types.HomeView {
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: "Kassa" } },
    { type: "section", text: { type: "mrkdwn", text: connectionSummary(info, options.defaultVersion) } },
  ];
  if (info?.otherKey)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: otherKeyLines(options.canManage).join("\n") },
    });
  if (info && options.instant)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: instantLine(options.instant, options.canManage) },
    });
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
