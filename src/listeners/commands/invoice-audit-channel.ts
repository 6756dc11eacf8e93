import { ephemeral } from "../../blocks/replies.js";
import { AUDIT_TEXT } from "../../i18n/audit.js";
import type { Lang } from "../../i18n/lang.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";

/** A channel the daily head can be posted in (a public or private channel, not a DM). */
const CHANNEL = /^[CG][A-Z0-9]{2,30}$/;

/**
 * `/invoice audit channel` typed in a channel (admins; the caller checked): that channel gets the
 * chain's head once a day (src/audit/daily.ts); `/invoice audit channel off`: no channel does.
 * Recorded as `audit.channel_set`, with the channel before and after.
 */
export async function auditChannel(
  deps: Pick<ListenerDeps, "stores">,
  asker: { teamId: string; channelId: string },
  on: boolean,
  lang: Lang,
  note: Note,
): Promise<Produced> {
  const t = AUDIT_TEXT[lang];
  if (on && !CHANNEL.test(asker.channelId))
    return { reply: ephemeral(t.channelNotHere, t.channelNotHere), log: { outcome: "usage" } };
  const before = (await deps.stores.settings.get(asker.teamId)).auditChannel ?? null;
  const after = on ? asker.channelId : null;
  await deps.stores.settings.update(asker.teamId, { auditChannel: after ?? undefined });
  note({ audit: { object: "audit channel", before: { channel: before }, after: { channel: after } } });
  const text = after ? t.channelSet(after) : t.channelOff;
  return { reply: ephemeral(text, text), log: { outcome: "audit_channel_set" } };
}
