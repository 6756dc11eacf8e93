import type { types } from "@slack/bolt";
import { ADMIN_TEXT } from "../i18n/admin.js";
import { HOME_TEXT } from "../i18n/home.js";
import { LANG_NAMES, type Lang } from "../i18n/lang.js";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import { connectButton, connectionSummary, type InstantStatus, instantLine, otherKeyLines } from "./admin.js";
import { HOME_BLOCKS_MAX, type HomePayouts, homePayoutBlocks } from "./home-payouts.js";
import { ADMIN_ACTIONS } from "./ids.js";
import type { ReplyVisibility } from "./invoice.js";
import { type FeedLine, feedSections, feedsLine } from "./status-lines.js";

type HomeOptions = {
  defaultVersion: ApiVersion;
  visibility: ReplyVisibility;
  canManage: boolean;
  /** Instant notifications (callbacks); the address is shown to managers only. */
  instant?: InstantStatus | undefined;
  /** The payment feeds in words, each with Settings for managers (teamId for their buttons). */
  feeds?: FeedLine[] | undefined;
  teamId?: string | undefined;
  /** The workspace's language (English by default). */
  lang?: Lang;
  /** Each register where payouts are on (issue 52): its rules and trusted recipients; `several`: name them. */
  payouts?: { several: boolean; parts: readonly HomePayouts[] } | undefined;
};

const mrkdwnSection = (text: string): types.KnownBlock => ({
  type: "section",
  text: { type: "mrkdwn", text },
});

/** App Home: status, how to use both commands, and for people who may, the buttons to manage it. */
export function homeView(info: ConnectionInfo | undefined, options: HomeOptions): types.HomeView {
  const lang = options.lang ?? "en";
  const head: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: "Kassa" } },
    ...statusBlocks(info, options, lang),
    ...manageBlocks(info, options.canManage, lang),
  ];
  const howTo: types.KnownBlock[] = [
    { type: "divider" },
    mrkdwnSection(HOME_TEXT[lang].howTo(options.visibility === "private").join("\n")),
  ];
  // The payouts part takes what room Block Kit's 100 blocks leave.
  const payouts = homePayoutBlocks(options.payouts?.parts ?? [], {
    several: options.payouts?.several ?? false,
    budget: HOME_BLOCKS_MAX - head.length - howTo.length,
    lang,
  });
  return { type: "home", blocks: [...head, ...payouts, ...howTo] };
}

/** The connection, the language, a secret sealed with another key, instant notifications, the feeds. */
function statusBlocks(
  info: ConnectionInfo | undefined,
  options: HomeOptions,
  lang: Lang,
): types.KnownBlock[] {
  const blocks: types.KnownBlock[] = [
    mrkdwnSection(connectionSummary(info, options.defaultVersion, lang)),
    {
      type: "context",
      elements: [{ type: "mrkdwn", text: ADMIN_TEXT[lang].languageLine(LANG_NAMES[lang]) }],
    },
  ];
  if (info?.otherKey) blocks.push(mrkdwnSection(otherKeyLines(options.canManage, lang).join("\n")));
  if (info && options.instant)
    blocks.push(mrkdwnSection(instantLine(options.instant, options.canManage, lang)));
  if (info && options.feeds)
    blocks.push(
      ...(options.feeds.length === 0
        ? [{ type: "context" as const, elements: [{ type: "mrkdwn" as const, text: feedsLine([], lang) }] }]
        : feedSections(
            options.feeds,
            { teamId: options.teamId ?? "", canManage: options.canManage && Boolean(options.teamId) },
            lang,
          )),
    );
  return blocks;
}

/** Connect (or Update) and Disconnect for people who may manage; for others, who connects. */
function manageBlocks(info: ConnectionInfo | undefined, canManage: boolean, lang: Lang): types.KnownBlock[] {
  const t = HOME_TEXT[lang];
  if (!canManage)
    return info ? [] : [{ type: "context", elements: [{ type: "mrkdwn", text: t.adminConnects }] }];
  const elements: types.Button[] = [
    info ? connectButton(t.update, "home", false) : connectButton(t.connect, "home"),
  ];
  if (info) {
    elements.push({
      type: "button",
      action_id: ADMIN_ACTIONS.disconnect,
      style: "danger",
      text: { type: "plain_text", text: t.disconnect },
      value: "home",
      confirm: {
        title: { type: "plain_text", text: t.disconnectTitle },
        text: { type: "mrkdwn", text: t.disconnectText },
        confirm: { type: "plain_text", text: t.disconnect },
        deny: { type: "plain_text", text: t.cancel },
        style: "danger",
      },
    });
  }
  return [{ type: "actions", block_id: "manage", elements }];
}
