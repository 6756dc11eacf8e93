import type { webApi } from "@slack/bolt";
import type { SlackMessage } from "../blocks/message.js";
import { isTimeZone } from "../config/values.js";
import { DEFAULT_LANG, type Lang } from "../i18n/lang.js";
import type { RemindedHere } from "../i18n/link-reminders.js";
import { slackApiError } from "../slack/error.js";
import type { Stores } from "../store/index.js";
import type { SlackClients } from "../watch/registry.js";
import type { LinkRecord } from "./record.js";

// Who hears about a link after it was made (issue 51): its creator, in their messages with Kassa, in
// their own timezone; a creator who left the workspace (users.info `deleted`, or Slack refusing the
// message for it), and a workflow that named nobody, are answered in the link's card's channel.

export type OwnerDeps = {
  slack: SlackClients;
  stores: Pick<Stores, "settings">;
  /** PAYMENTS_TIMEZONE: the zone of a date's fallback text when the creator's is not known. */
  zone: string;
};

/** The workspace's client, the creator (a person, or none: a workflow), whether they can be written to, their zone. */
export type Owner = {
  client: webApi.WebClient;
  person: string | undefined;
  active: boolean;
  zone: string;
  lang: Lang;
};

const PERSON = /^[UW][A-Z0-9]{2,}$/;
/** Slack's answers to a message for someone who is no longer there. */
const GONE = new Set(["account_inactive", "user_not_found", "user_disabled", "cannot_dm_bot"]);

/** The link's owner as Slack knows them now; undefined when Kassa has no client for the workspace. */
export async function ownerOf(deps: OwnerDeps, record: LinkRecord): Promise<Owner | undefined> {
  const client = await deps.slack(record.team);
  if (!client) return undefined;
  const lang = (await deps.stores.settings.get(record.team).catch(() => undefined))?.language ?? DEFAULT_LANG;
  if (!PERSON.test(record.creator))
    return { client, person: undefined, active: false, zone: deps.zone, lang };
  const info = await client.users.info({ user: record.creator }).catch(() => undefined);
  const tz = info?.user?.tz;
  const zone = typeof tz === "string" && isTimeZone(tz) ? tz : deps.zone;
  return { client, person: record.creator, active: info?.user?.deleted !== true, zone, lang };
}

/** Where a message to the owner went. */
export type Told = "dm" | "channel" | "nobody";

/** Why a message meant for the owner went to the channel, for its line at the top. */
export function hereOf(owner: Owner): { why: RemindedHere; creator: string } {
  return owner.person
    ? { why: "deactivated", creator: `<@${owner.person}>` }
    : { why: "workflow", creator: "" };
}

/**
 * A message to the link's owner: in their messages with Kassa, else in the card's channel (the
 * message built with why it is there). Throws on any other refusal, so the caller tries again.
 */
export async function tellOwner(
  owner: Owner,
  record: Pick<LinkRecord, "card" | "channel">,
  build: (here: ReturnType<typeof hereOf> | undefined) => SlackMessage,
): Promise<Told> {
  if (owner.person && owner.active) {
    try {
      const message = build(undefined);
      await owner.client.chat.postMessage({
        channel: owner.person,
        text: message.text,
        blocks: message.blocks,
      });
      return "dm";
    } catch (error) {
      if (!GONE.has(slackApiError(error) ?? "")) throw error;
    }
  }
  const channel = record.card?.channel ?? record.channel;
  if (!channel || channel === owner.person) return "nobody";
  const message = build(hereOf(owner));
  await owner.client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
  return "channel";
}
