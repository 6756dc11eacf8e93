import type { types } from "@slack/bolt";
import { ADMIN_TEXT } from "../i18n/admin.js";
import { HOME_TEXT } from "../i18n/home.js";
import { LANG_NAMES, type Lang } from "../i18n/lang.js";
import type { ApiVersion } from "../payments/model.js";
import type { ConnectionInfo } from "../store/credentials.js";
import { connectButton, connectionSummary, type InstantStatus, instantLine, otherKeyLines } from "./admin.js";
import { ADMIN_ACTIONS } from "./ids.js";
import type { ReplyVisibility } from "./invoice.js";
import { type FeedLine, feedSections, feedsLine } from "./status-lines.js";

/** App Home: status, how to use both commands, and for people who may, the buttons to manage it. */
export function homeView(
  info: ConnectionInfo | undefined,
  options: {
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
  },
): types.HomeView {
  const lang = options.lang ?? "en";
  const t = HOME_TEXT[lang];
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: "Kassa" } },
    {
      type: "section",
      text: { type: "mrkdwn", text: connectionSummary(info, options.defaultVersion, lang) },
    },
    {
      type: "context",
      elements: [{ type: "mrkdwn", text: ADMIN_TEXT[lang].languageLine(LANG_NAMES[lang]) }],
    },
  ];
  if (info?.otherKey)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: otherKeyLines(options.canManage, lang).join("\n") },
    });
  if (info && options.instant)
    blocks.push({
      type: "section",
      text: { type: "mrkdwn", text: instantLine(options.instant, options.canManage, lang) },
    });
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
  if (options.canManage) {
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
    blocks.push({ type: "actions", block_id: "manage", elements });
  } else if (!info) {
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: t.adminConnects }],
    });
  }
  blocks.push(
    { type: "divider" },
    {
      type: "section",
      text: {
        type: "mrkdwn",
        text: t.howTo(options.visibility === "private").join("\n"),
      },
    },
  );
  return { type: "home", blocks };
}
