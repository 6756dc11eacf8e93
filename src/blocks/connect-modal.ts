import type { types } from "@slack/bolt";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import { connectionSummary } from "./admin.js";
import type { BalanceVisibility } from "./balance.js";
import { INPUT_ACTION_ID, selectOption } from "./form.js";
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
  const versions = [selectOption("v2", "v2"), selectOption("v3", "v3")];
  const visibilities = [
    selectOption("In the channel", "channel"),
    selectOption("Privately, with a Share button", "private"),
  ];
  const balanceViewers = [
    selectOption("Admins only", "admins"),
    selectOption("Everyone in the workspace", "everyone"),
  ];
  const creators = [
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
    {
      type: "input",
      block_id: CONNECT_FIELDS.login,
      label: { type: "plain_text", text: "Cash register login" },
      element: {
        type: "plain_text_input",
        action_id: INPUT_ACTION_ID,
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
      element: { type: "plain_text_input", action_id: INPUT_ACTION_ID, max_length: 500 },
    },
    {
      type: "input",
      block_id: CONNECT_FIELDS.salt,
      optional: true,
      label: { type: "plain_text", text: "Secret 2 (optional)" },
      hint: {
        type: "plain_text",
        text: form.hasSalt
          ? "Stored. Leave blank to keep it. Kassa checks the payment service's payment notifications with it."
          : "Turns on instant notifications: Kassa checks the payment service's payment notifications with it. Stored encrypted.",
      },
      element: { type: "plain_text_input", action_id: INPUT_ACTION_ID, max_length: 500 },
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
        action_id: INPUT_ACTION_ID,
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
        action_id: INPUT_ACTION_ID,
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
        action_id: INPUT_ACTION_ID,
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
        action_id: INPUT_ACTION_ID,
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
