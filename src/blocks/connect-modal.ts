import type { types } from "@slack/bolt";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import { connectionSummary } from "./admin.js";
import type { BalanceVisibility } from "./balance.js";
import { modal, radioInput, selectInput, selectOption, textInput } from "./form.js";
import { CONNECT_VIEW } from "./ids.js";
import type { ReplyVisibility } from "./invoice.js";
import { LIMITS } from "./limits.js";
import { safeText, truncate } from "./mrkdwn.js";

/** Block ids of the connect modal's inputs; response_action errors are keyed by them. */
export const CONNECT_FIELDS = {
  login: "login",
  secret: "secret",
  salt: "salt",
  apiVersion: "api_version",
  visibility: "visibility",
  balanceVisibility: "balance_visibility",
  invoiceCreators: "invoice_creators",
} as const;

type ConnectForm = {
  login?: string | undefined;
  hasSecret: boolean;
  /** A Secret 2 is stored (never put back into the form either). */
  hasSalt?: boolean | undefined;
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

/** The connect modal. The secret is never put back into it; blank keeps the stored one. */
export function connectModal(form: ConnectForm): types.ModalView {
  const whoMay = [
    selectOption("Admins only", "admins"),
    selectOption("Everyone in the workspace", "everyone"),
  ];
  const blocks: types.KnownBlock[] = [
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: "Connect this workspace to its CrystalPay cash register. The login and secret are checked with the payment service before anything is saved; the secret is stored encrypted and never shown again.",
      },
    },
    textInput({
      block: CONNECT_FIELDS.login,
      label: "Cash register login",
      maxLength: 200,
      initial: form.login,
    }),
    textInput({
      block: CONNECT_FIELDS.secret,
      optional: form.hasSecret,
      label: "Secret (Secret 1)",
      hint: form.hasSecret
        ? "Leave blank to keep the stored secret."
        : "From the cash register's settings in CrystalPay.",
      maxLength: 500,
    }),
    textInput({
      block: CONNECT_FIELDS.salt,
      optional: true,
      label: "Secret 2 (optional)",
      hint: form.hasSalt
        ? "Stored. Leave blank to keep it. Kassa checks the payment service's payment notifications with it."
        : "Turns on instant notifications: Kassa checks the payment service's payment notifications with it. Stored encrypted.",
      maxLength: 500,
    }),
  ];
  if (form.error) {
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: `:warning: ${safeText(form.error, 1900)}` }],
    });
  }
  blocks.push(
    selectInput({
      block: CONNECT_FIELDS.apiVersion,
      label: "API version",
      options: [selectOption("v2", "v2"), selectOption("v3", "v3")],
      initial: form.apiVersion,
    }),
    radioInput({
      block: CONNECT_FIELDS.visibility,
      label: "Where invoice cards and method lists go",
      options: [
        selectOption("In the channel", "channel"),
        selectOption("Privately, with a Share button", "private"),
      ],
      initial: form.visibility,
    }),
    radioInput({
      block: CONNECT_FIELDS.balanceVisibility,
      label: "Who may see the balance (/balance)",
      hint: "Admins: workspace admins and owners, the installer and the operator's list. The reply is always visible only to the asker.",
      options: whoMay,
      initial: form.balanceVisibility ?? "admins",
    }),
    radioInput({
      block: CONNECT_FIELDS.invoiceCreators,
      label: "Who may create invoices (/invoice new)",
      hint: "Admins: the same people as above. A created invoice is a real payment link of the cash register.",
      options: whoMay,
      initial: form.invoiceCreators ?? "admins",
    }),
  );
  return modal({
    callbackId: CONNECT_VIEW,
    title: "Connect cash register",
    submit: "Check and save",
    close: "Cancel",
    privateMetadata: form.privateMetadata,
    blocks,
  });
}

function noticeModal(title: string, mrkdwn: string): types.ModalView {
  return modal({
    callbackId: `${CONNECT_VIEW}_notice`,
    title,
    close: "Close",
    blocks: [{ type: "section", text: { type: "mrkdwn", text: truncate(mrkdwn, LIMITS.sectionText) } }],
  });
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
