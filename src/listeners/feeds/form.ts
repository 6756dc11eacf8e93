import type { webApi } from "@slack/bolt";
import { feedFormModal } from "../../blocks/feed-form.js";
import { ephemeral } from "../../blocks/replies.js";
import { filterOf, filterOfMode, MENTIONS_MAX } from "../../feed/model.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { NotConnectedError } from "../../payments/errors.js";
import { slackErrorCode } from "../../slack/error.js";
import type { Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { langFor } from "../workspace/settings.js";

/** How long the form waits for the method list: the trigger_id lapses 3 s after the click or command. */
export const FEED_FORM_METHODS_BUDGET_MS = 700;

export type FeedFormOpened =
  | { kind: "opened"; methods: number | "unavailable" }
  | { kind: "not_a_channel" }
  | { kind: "not_allowed"; why: string }
  | { kind: "failed"; modalError: string };

/** The register a feed is of: its key, its name, and whether its workspace has several. */
export type FeedRegisterOf = { key: string; name: string; several: boolean };

/** The register's name where its workspace has several (buttons, forms and posts say it); else none. */
export function shownName(register: FeedRegisterOf): string | undefined {
  return register.several ? register.name : undefined;
}

/** A feed belongs to a channel (public or private), never to a DM. */
export function isFeedChannel(channel: string): boolean {
  return /^[CG][A-Z0-9]{2,40}$/.test(channel);
}

/**
 * Opens `channel`'s feed form (`/invoice feed`, a feed's Settings) for someone who may change feeds
 * (those who may subscribe), filled with what the feed does now, the register's methods offered
 * from its cached list. Not connected: NotConnectedError (the reply offers Connect).
 */
export async function openFeedForm(
  deps: ManagerDeps & Pick<ListenerDeps, "payments" | "feeds">,
  client: webApi.WebClient,
  who: {
    teamId: string;
    userId: string;
    enterpriseId?: string | undefined;
    channelId: string;
    triggerId: string;
    register: FeedRegisterOf;
  },
): Promise<FeedFormOpened> {
  if (!isFeedChannel(who.channelId)) return { kind: "not_a_channel" };
  const manager = await checkManager(deps, client, who);
  if (!manager.allowed) return { kind: "not_allowed", why: manager.why };
  const { key } = who.register;
  if (!(await deps.stores.credentials.get(key))) throw new NotConnectedError(key);
  const [existing, names, lang] = await Promise.all([
    deps.feeds.channel(key, who.channelId),
    deps.payments.methodNamesWithin(key, FEED_FORM_METHODS_BUDGET_MS),
    langFor(deps, who.teamId),
  ]);
  const methods = names.size > 0 ? [...names].map(([code, name]) => ({ code, name })) : undefined;
  try {
    await client.views.open({
      trigger_id: who.triggerId,
      view: feedFormModal({
        channel: who.channelId,
        isFeed: existing !== undefined,
        filter: existing ? filterOf(existing) : filterOfMode("paid"),
        mentions: existing?.mentions,
        methods,
        maxPeople: MENTIONS_MAX,
        origin: {
          t: who.teamId,
          c: who.channelId,
          ...(who.register.several ? { r: who.register.name } : {}),
        },
        lang,
      }),
    });
  } catch (error) {
    return { kind: "failed", modalError: slackErrorCode(error) };
  }
  return { kind: "opened", methods: methods ? methods.length : "unavailable" };
}

/** The answer once the form was tried: none when it opened, else that it did not and how to retry. */
export function feedFormAnswer(
  opened: Extract<FeedFormOpened, { kind: "opened" | "failed" }>,
  lang: Lang,
): Produced {
  if (opened.kind === "opened")
    return { reply: null, log: { outcome: "modal_opened", methods: opened.methods } };
  const reply = ephemeral(
    NOTICES_TEXT[lang].formNotOpened("/invoice feed"),
    NOTICES_TEXT[lang].formNotOpenedFallback("/invoice feed"),
  );
  return { reply, log: { outcome: "modal_failed", modalError: opened.modalError } };
}
