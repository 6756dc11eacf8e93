import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { feedSubscribedMessage, feedWelcomeMessage } from "../../blocks/feed.js";
import { describeFeed } from "../../blocks/feed-describe.js";
import { FEED_FIELDS, FEED_FORM_VIEW } from "../../blocks/feed-form.js";
import { fieldError } from "../../blocks/form.js";
import type { FeedFilter, Mentions } from "../../feed/model.js";
import { FEED_FORM_TEXT } from "../../i18n/feed-form.js";
import type { Lang } from "../../i18n/lang.js";
import { slackErrorCode } from "../../slack/error.js";
import { slackFailureOfCode } from "../../slack/failures.js";
import { handledSubmission, type Noted, type ViewAnswer } from "../contexts/handled.js";
import type { Note, Outcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import type { ViewArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, keptElsewhereText, registerNamed } from "../workspace/register.js";
import { readFeedForm } from "./feed-form-values.js";

const originSchema = z.object({
  t: z.string().min(1).max(32),
  c: z.string().regex(/^[CG][A-Z0-9]{2,40}$/),
  /** The register's name; forms opened before registers (or in a workspace with one) have none: main. */
  r: z.string().min(1).max(20).optional(),
});

/**
 * The feed form's Save: read and check the values (errors next to their fields), check the submitter
 * again (a submission is a request of its own: only those who may subscribe may save), then make or
 * update the channel's feed. A new feed says so in the channel first, as `/invoice subscribe` does;
 * Kassa not in the channel is said next to the first field, nothing saved. A change never posts an
 * old invoice: the channel's feed keeps what it has seen. The saver gets a private note of what the
 * feed now does.
 */
export const feedFormSubmission =
  (deps: FeedFormDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const { team: teamId, user, lang } = await viewContext(deps, body);
    const origin = { view: FEED_FORM_VIEW, team: teamId, user, field: FEED_FIELDS.events, lang };
    await handledSubmission(deps, origin, ack, (note, reply) =>
      saveFeedForm({ deps, client, view, body, teamId, lang, note, reply }),
    );
  };

type FeedFormDeps = ManagerDeps & Pick<ListenerDeps, "feeds" | "now" | "inFlight" | "audit">;

/** One submission of the feed form being handled: what Slack sent, and how to answer it. */
type FeedSave = {
  deps: FeedFormDeps;
  client: webApi.WebClient;
  view: ViewArgs["view"];
  body: ViewArgs["body"];
  teamId: string;
  lang: Lang;
  note: Note<Noted>;
  reply: (answer?: ViewAnswer) => Promise<void>;
};
/** The channel whose feed the form is, and the register (its key) the feed reads. */
type FeedTarget = { channel: string; key: string; register: ChosenRegister };
type Feed = { filter: FeedFilter; mentions: Mentions | null };

async function saveFeedForm(save: FeedSave): Promise<Outcome> {
  const { deps, view, lang, reply } = save;
  const target = await feedTarget(save);
  if ("outcome" in target) return target;
  const existing = await deps.feeds.channel(target.key, target.channel);
  const read = readFeedForm(view.state.values, existing?.filter ?? undefined, lang);
  if (!read.ok) {
    await reply(
      read.errors
        ? { response_action: "errors", errors: read.errors }
        : fieldError(FEED_FIELDS.events, FEED_FORM_TEXT[lang].outdated),
    );
    return read.errors ? { outcome: "invalid", fields: Object.keys(read.errors) } : { outcome: "bad_form" };
  }
  const refused = await refusedSaver(save, target.key);
  if (refused) return refused;
  const feed = { filter: read.filter, mentions: read.mentions };
  if (!existing) {
    const unwelcome = await welcomeFeed(save, target, feed);
    if (unwelcome) return unwelcome;
  }
  return subscribeAndTell(save, target, feed);
}

/** The form's channel and register, as its metadata names them in this workspace; or why not. */
async function feedTarget({
  deps,
  view,
  teamId,
  lang,
  note,
  reply,
}: FeedSave): Promise<FeedTarget | Outcome> {
  const origin = readSubmission(view, teamId, { origin: originSchema })?.origin;
  const register = origin
    ? await registerNamed(deps.stores.registers, teamId, origin.r, origin.c)
    : undefined;
  if (!origin || !register) {
    await reply(fieldError(FEED_FIELDS.events, FEED_FORM_TEXT[lang].outdated));
    return { outcome: "bad_form" };
  }
  const channel = origin.c;
  note({ channel });
  if (register.several) note({ register: register.name });
  if (register.keptTo) {
    await reply(fieldError(FEED_FIELDS.events, keptElsewhereText(register, lang)));
    return { outcome: "register_kept_elsewhere" };
  }
  return { channel, key: register.key, register };
}

/** Only those who may subscribe may save, and only for a connected register; undefined: they may. */
async function refusedSaver(save: FeedSave, key: string): Promise<Outcome | undefined> {
  const { deps, client, body, teamId, note, reply } = save;
  const t = FEED_FORM_TEXT[save.lang];
  const manager = await checkManager(deps, client, {
    userId: body.user.id,
    teamId,
    enterpriseId: body.enterprise?.id,
  });
  note({ manager: manager.why });
  if (!manager.allowed) {
    await reply(fieldError(FEED_FIELDS.events, t.notAllowed));
    return { outcome: "not_allowed" };
  }
  if (!(await deps.stores.credentials.get(key))) {
    await reply(fieldError(FEED_FIELDS.events, t.notConnected));
    return { outcome: "not_connected" };
  }
  return undefined;
}

/** A new feed says so in the channel first; Kassa not in the channel is said next to the first field. */
async function welcomeFeed(save: FeedSave, target: FeedTarget, feed: Feed): Promise<Outcome | undefined> {
  const { client, body, teamId, lang, reply } = save;
  const { channel, register } = target;
  const origin = { teamId, channel, register: register.several ? register.name : undefined };
  const welcome = feedWelcomeMessage(describeFeed(feed, lang), body.user.id, origin, lang);
  try {
    await client.chat.postMessage({ channel, text: welcome.text, blocks: welcome.blocks });
    return undefined;
  } catch (error) {
    const code = slackErrorCode(error);
    if (slackFailureOfCode(code) !== "not_in_channel") throw error;
    await reply(fieldError(FEED_FIELDS.events, FEED_FORM_TEXT[lang].notInChannel));
    return { outcome: "feed_not_in_channel", slackError: code };
  }
}

/** Saves the feed (a change never posts an old invoice) and tells the saver privately what it does. */
async function subscribeAndTell(save: FeedSave, target: FeedTarget, feed: Feed): Promise<Outcome> {
  const { deps, client, body, lang, note, reply } = save;
  const { channel } = target;
  const user = body.user.id;
  const saved = await deps.feeds.subscribe(target.key, {
    channel,
    by: user,
    now: deps.now().getTime(),
    ...feed,
  });
  await reply();
  const told = feedSubscribedMessage(describeFeed(feed, lang), saved, lang);
  await client.chat
    .postEphemeral({ channel, user, text: told.text, blocks: told.blocks })
    .catch((error: unknown) => {
      note({ tellError: slackErrorCode(error) });
    });
  return { outcome: "feed_subscribed", feed: saved, channel };
}
