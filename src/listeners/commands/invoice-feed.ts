import type { webApi } from "@slack/bolt";
import { notAllowedMessage } from "../../blocks/admin.js";
import { feedNotInChannelMessage, feedSubscribedMessage, feedWelcomeMessage } from "../../blocks/feed.js";
import { describeFeed } from "../../blocks/feed-describe.js";
import { ephemeral } from "../../blocks/replies.js";
import { type FeedFilter, filterOf, filterOfMode } from "../../feed/model.js";
import { FEED_FORM_TEXT } from "../../i18n/feed-form.js";
import type { Lang } from "../../i18n/lang.js";
import { NotConnectedError } from "../../payments/errors.js";
import { slackErrorCode } from "../../slack/error.js";
import { slackFailureOfCode } from "../../slack/failures.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import {
  type FeedRegisterOf,
  feedFormAnswer,
  isFeedChannel,
  openFeedForm,
  shownName,
} from "../feeds/form.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import type { SubscribeWords } from "./feed-words.js";

type FeedCommand = {
  lang: Lang;
  teamId: string;
  userId: string;
  enterpriseId?: string | undefined;
  channelId: string;
  triggerId: string;
  /** The register whose feed this is (named first, the channel's, or main). */
  register: FeedRegisterOf;
};

/**
 * `/invoice subscribe [paid|failures|all] [over 10000]` in a channel (those who may connect the
 * cash register): a new feed says so in the channel first (which also shows Kassa can post there),
 * then the subscription is saved. Words set what it posts (a method or test choice made in the form
 * stays); none keep an existing feed as it is (and resume it if paused). Mentions stay the form's.
 */
export async function subscribeFeed(
  deps: ManagerDeps & Pick<ListenerDeps, "feeds" | "now">,
  client: webApi.WebClient,
  command: FeedCommand,
  words: SubscribeWords | null,
  note: Note,
): Promise<Produced> {
  note({ action: "subscribe" });
  const { lang } = command;
  const manager = await checkManager(deps, client, command);
  note({ manager: manager.why });
  if (!manager.allowed) return { reply: notAllowedMessage("feed", lang), log: { outcome: "not_allowed" } };
  if (!isFeedChannel(command.channelId)) return { reply: notAChannel(lang), log: { outcome: "usage" } };
  const { key } = command.register;
  if (!(await deps.stores.credentials.get(key))) throw new NotConnectedError(key);
  const existing = await deps.feeds.channel(key, command.channelId);
  const before = existing ? filterOf(existing) : filterOfMode("paid");
  const filter: FeedFilter = words
    ? { ...before, events: words.events, ...(words.minRub ? { minRub: words.minRub } : { minRub: null }) }
    : before;
  if (!existing) {
    const refused = await welcomeFeed(client, command, filter, lang);
    if (refused) return refused;
  }
  const outcome = await deps.feeds.subscribe(key, {
    channel: command.channelId,
    filter,
    by: command.userId,
    now: deps.now().getTime(),
  });
  const what = describeFeed({ filter, mentions: existing?.mentions }, lang);
  return {
    reply: feedSubscribedMessage(what, outcome, lang),
    log: { outcome: "feed_subscribed", feed: outcome, channel: command.channelId },
  };
}

/**
 * A new feed says so in the channel first, which also shows Kassa can post there; undefined when it
 * could, else the reply saying Kassa is not in the channel.
 */
async function welcomeFeed(
  client: webApi.WebClient,
  command: FeedCommand,
  filter: FeedFilter,
  lang: Lang,
): Promise<Produced | undefined> {
  const welcome = feedWelcomeMessage(
    describeFeed({ filter }, lang),
    command.userId,
    { teamId: command.teamId, channel: command.channelId, register: shownName(command.register) },
    lang,
  );
  try {
    await client.chat.postMessage({ channel: command.channelId, text: welcome.text, blocks: welcome.blocks });
    return undefined;
  } catch (error) {
    const code = slackErrorCode(error);
    if (slackFailureOfCode(code) !== "not_in_channel") throw error;
    return {
      reply: feedNotInChannelMessage(lang),
      log: { outcome: "feed_not_in_channel", slackError: code },
    };
  }
}

/** `/invoice feed` in a channel: its feed form, or why not. */
export async function feedFormCommand(
  deps: ManagerDeps & Pick<ListenerDeps, "feeds" | "payments">,
  client: webApi.WebClient,
  command: FeedCommand,
  note: Note,
): Promise<Produced> {
  note({ action: "feed" });
  const { lang } = command;
  const opened = await openFeedForm(deps, client, command);
  if (opened.kind === "not_a_channel") return { reply: notAChannel(lang), log: { outcome: "usage" } };
  if (opened.kind === "not_allowed") {
    note({ manager: opened.why });
    return { reply: notAllowedMessage("feed", lang), log: { outcome: "not_allowed" } };
  }
  return feedFormAnswer(opened, lang);
}

function notAChannel(lang: "en" | "ru") {
  return ephemeral(FEED_FORM_TEXT[lang].notAChannel, FEED_FORM_TEXT[lang].notAChannelFallback);
}
