import type { types } from "@slack/bolt";
import { CONNECT_TEXT } from "../i18n/connect.js";
import { LANG_NAMES, LANGS, type Lang } from "../i18n/lang.js";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import { connectionSummary } from "./admin.js";
import type { BalanceVisibility } from "./balance.js";
import { channelsInput, modal, radioInput, selectInput, selectOption, textInput } from "./form.js";
import { CONNECT_VIEW } from "./ids.js";
import type { ReplyVisibility } from "./invoice.js";
import { LIMITS } from "./limits.js";
import { safeText, truncate } from "./mrkdwn.js";

/** Block ids of the connect modal's inputs; response_action errors are keyed by them. */
export const CONNECT_FIELDS = {
  register: "register",
  channels: "register_channels",
  login: "login",
  secret: "secret",
  salt: "salt",
  apiVersion: "api_version",
  visibility: "visibility",
  balanceVisibility: "balance_visibility",
  invoiceCreators: "invoice_creators",
  workflowCreates: "workflow_creates",
  language: "language",
} as const;

type ConnectForm = {
  /** The register the form edits (main for a workspace's first); another name typed adds one. */
  register?: string | undefined;
  /** The channels the register is kept to (none: used anywhere). */
  channels?: readonly string[] | undefined;
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
  /** Whether workflows may create invoices; off when not given. */
  workflowCreates?: "off" | "on" | undefined;
  /** Shown under the secret when the check could only finish after the form was answered. */
  error?: string | undefined;
  privateMetadata: string;
  /** The workspace's language (English by default). */
  lang?: Lang;
};

/** Which register the form edits (a new name adds one) and the channels it is kept to. */
function registerInputs(form: ConnectForm, t: (typeof CONNECT_TEXT)[Lang]): types.InputBlock[] {
  return [
    textInput({
      block: CONNECT_FIELDS.register,
      optional: true,
      label: t.register,
      hint: t.registerHint,
      maxLength: 20,
      initial: form.register ?? "main",
    }),
    channelsInput({
      block: CONNECT_FIELDS.channels,
      optional: true,
      label: t.registerChannels,
      hint: t.registerChannelsHint,
      max: 100,
      initial: form.channels,
    }),
  ];
}

/** The connect modal. The secret is never put back into it; blank keeps the stored one. */
export function connectModal(form: ConnectForm): types.ModalView {
  const t = CONNECT_TEXT[form.lang ?? "en"];
  return modal({
    callbackId: CONNECT_VIEW,
    title: t.title,
    submit: t.submit,
    close: t.cancel,
    privateMetadata: form.privateMetadata,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: t.intro } },
      ...registerInputs(form, t),
      ...credentialInputs(form, t),
      ...settingInputs(form, t),
    ],
  });
}

/** Login, secret and salt (blank secret or salt: the stored one stays), and what was wrong with them. */
function credentialInputs(form: ConnectForm, t: (typeof CONNECT_TEXT)[Lang]): types.KnownBlock[] {
  const blocks: types.KnownBlock[] = [
    textInput({
      block: CONNECT_FIELDS.login,
      label: t.login,
      maxLength: 200,
      initial: form.login,
    }),
    textInput({
      block: CONNECT_FIELDS.secret,
      optional: form.hasSecret,
      label: t.secret,
      hint: form.hasSecret ? t.secretKeep : t.secretWhere,
      maxLength: 500,
    }),
    textInput({
      block: CONNECT_FIELDS.salt,
      optional: true,
      label: t.salt,
      hint: form.hasSalt ? t.saltKeep : t.saltWhy,
      maxLength: 500,
    }),
  ];
  if (!form.error) return blocks;
  const warning = `:warning: ${safeText(form.error, 1900)}`;
  return [...blocks, { type: "context", elements: [{ type: "mrkdwn", text: warning }] }];
}

/** The API version, where replies go, who sees balances, the language, who creates invoices and workflows. */
function settingInputs(form: ConnectForm, t: (typeof CONNECT_TEXT)[Lang]): types.InputBlock[] {
  const whoMay = [selectOption(t.adminsOnly, "admins"), selectOption(t.everyone, "everyone")];
  return [
    selectInput({
      block: CONNECT_FIELDS.apiVersion,
      label: t.apiVersion,
      options: [selectOption("v2", "v2"), selectOption("v3", "v3")],
      initial: form.apiVersion,
    }),
    radioInput({
      block: CONNECT_FIELDS.visibility,
      label: t.where,
      options: [selectOption(t.inChannel, "channel"), selectOption(t.privately, "private")],
      initial: form.visibility,
    }),
    radioInput({
      block: CONNECT_FIELDS.balanceVisibility,
      label: t.whoBalance,
      hint: t.whoBalanceHint,
      options: whoMay,
      initial: form.balanceVisibility ?? "admins",
    }),
    radioInput({
      block: CONNECT_FIELDS.language,
      label: t.language,
      hint: t.languageHint,
      options: LANGS.map((lang) => selectOption(LANG_NAMES[lang], lang)),
      initial: form.lang ?? "en",
    }),
    radioInput({
      block: CONNECT_FIELDS.invoiceCreators,
      label: t.whoCreates,
      hint: t.whoCreatesHint,
      options: whoMay,
      initial: form.invoiceCreators ?? "admins",
    }),
    radioInput({
      block: CONNECT_FIELDS.workflowCreates,
      label: t.workflows,
      hint: t.workflowsHint,
      options: [selectOption(t.workflowsNo, "off"), selectOption(t.workflowsYes, "on")],
      initial: form.workflowCreates ?? "off",
    }),
  ];
}

function noticeModal(title: string, mrkdwn: string, lang: Lang): types.ModalView {
  return modal({
    callbackId: `${CONNECT_VIEW}_notice`,
    title,
    close: CONNECT_TEXT[lang].close,
    blocks: [{ type: "section", text: { type: "mrkdwn", text: truncate(mrkdwn, LIMITS.sectionText) } }],
  });
}

export function checkingModal(lang: Lang = "en"): types.ModalView {
  return noticeModal(CONNECT_TEXT[lang].checkingTitle, CONNECT_TEXT[lang].checking, lang);
}

export function connectedModal(
  info: ConnectionInfo,
  methodCount: number,
  defaultVersion: ApiVersion,
  lang: Lang = "en",
): types.ModalView {
  const t = CONNECT_TEXT[lang];
  return noticeModal(
    t.connectedTitle,
    `${connectionSummary(info, defaultVersion, lang)}\n${t.connected(methodCount)}`,
    lang,
  );
}
