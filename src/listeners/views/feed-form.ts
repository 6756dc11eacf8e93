import { z } from "zod";
import { feedSubscribedMessage, feedWelcomeMessage } from "../../blocks/feed.js";
import { describeFeed } from "../../blocks/feed-describe.js";
import { FEED_FIELDS, FEED_FORM_VIEW } from "../../blocks/feed-form.js";
import { fieldError } from "../../blocks/form.js";
import { FEED_FORM_TEXT } from "../../i18n/feed-form.js";
import { DEFAULT_LANG } from "../../i18n/lang.js";
import { slackErrorCode } from "../../slack/error.js";
import { slackFailureOfCode } from "../../slack/failures.js";
import type { ListenerDeps } from "../deps.js";
import type { ViewArgs } from "../router.js";
import { handledSubmission } from "../shared/handled.js";
import { langFor } from "../shared/manage.js";
import { checkManager, type ManagerDeps } from "../shared/permissions.js";
import { keptElsewhereText, registerNamed } from "../shared/register.js";
import { teamIdOf } from "../shared/team.js";
import { readFeedForm } from "./feed-form-values.js";
import { parseJsonOrUndefined } from "./form.js";

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
  (deps: ManagerDeps & Pick<ListenerDeps, "feeds" | "now" | "inFlight" | "audit">) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const teamId = teamIdOf(body);
    const lang = await langFor(deps, teamId).catch(() => DEFAULT_LANG);
    const t = FEED_FORM_TEXT[lang];
    const user = body.user.id;
    const origin = { view: FEED_FORM_VIEW, team: teamId, user, field: FEED_FIELDS.events, lang };
    await handledSubmission(deps, origin, ack, async (noted, reply) => {
      const from = originSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
      const register = from.success
        ? await registerNamed(deps.stores.registers, teamId, from.data.r, from.data.c)
        : undefined;
      if (!from.success || from.data.t !== teamId || !register) {
        await reply(fieldError(FEED_FIELDS.events, t.outdated));
        return { outcome: "bad_form" };
      }
      const channel = from.data.c;
      noted.channel = channel;
      if (register.several) noted.register = register.name;
      if (register.keptTo) {
        await reply(fieldError(FEED_FIELDS.events, keptElsewhereText(register, lang)));
        return { outcome: "register_kept_elsewhere" };
      }
      const key = register.key;
      const existing = await deps.feeds.channel(key, channel);
      const read = readFeedForm(view.state.values, existing?.filter ?? undefined, lang);
      if (!read.ok) {
        await reply(
          read.errors
            ? { response_action: "errors", errors: read.errors }
            : fieldError(FEED_FIELDS.events, t.outdated),
        );
        return read.errors
          ? { outcome: "invalid", fields: Object.keys(read.errors) }
          : { outcome: "bad_form" };
      }
      const manager = await checkManager(deps, client, {
        userId: user,
        teamId,
        enterpriseId: body.enterprise?.id,
      });
      noted.manager = manager.why;
      if (!manager.allowed) {
        await reply(fieldError(FEED_FIELDS.events, t.notAllowed));
        return { outcome: "not_allowed" };
      }
      if (!(await deps.stores.credentials.get(key))) {
        await reply(fieldError(FEED_FIELDS.events, t.notConnected));
        return { outcome: "not_connected" };
      }
      const feed = { filter: read.filter, mentions: read.mentions };
      if (!existing) {
        const origin = { teamId, channel, register: register.several ? register.name : undefined };
        const welcome = feedWelcomeMessage(describeFeed(feed, lang), user, origin, lang);
        try {
          await client.chat.postMessage({ channel, text: welcome.text, blocks: welcome.blocks });
        } catch (error) {
          const code = slackErrorCode(error);
          if (slackFailureOfCode(code) !== "not_in_channel") throw error;
          await reply(fieldError(FEED_FIELDS.events, t.notInChannel));
          return { outcome: "feed_not_in_channel", slackError: code };
        }
      }
      const saved = await deps.feeds.subscribe(key, {
        channel,
        by: user,
        now: deps.now().getTime(),
        ...feed,
      });
      await reply();
      const note = feedSubscribedMessage(describeFeed(feed, lang), saved, lang);
      await client.chat
        .postEphemeral({ channel, user, text: note.text, blocks: note.blocks })
        .catch((error: unknown) => {
          noted.tellError = slackErrorCode(error);
        });
      return { outcome: "feed_subscribed", feed: saved, channel };
    });
  };
