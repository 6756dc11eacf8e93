import type { webApi } from "@slack/bolt";
import { notAllowedMessage } from "../../blocks/admin.js";
import { escapeMrkdwn } from "../../blocks/mrkdwn.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Cadence } from "../../digests/model.js";
import { DIGEST_TEXT } from "../../i18n/digest.js";
import type { Lang } from "../../i18n/lang.js";
import { REGISTERS_TEXT } from "../../i18n/registers.js";
import { NotConnectedError } from "../../payments/errors.js";
import { slackErrorCode } from "../../slack/error.js";
import { slackFailureOfCode } from "../../slack/failures.js";
import type { Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { readerZone } from "../replies/invoice-summary.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";

/**
 * `/invoice [REGISTER] digest HH:MM weekly|monthly` in a channel (admins): the register's past week's report there every
 * Monday, or last month's (with every invoice as CSV) on the 1st, at that time in the asker's
 * timezone. The channel is told first (which also shows Kassa can post there). `off weekly|monthly`
 * stops it. The daily digest stays the feed's (`/invoice digest HH:MM`).
 */
export async function runPeriodDigestCommand(
  deps: ManagerDeps & Pick<ListenerDeps, "digests" | "now" | "serviceTimeZone" | "stores">,
  client: webApi.WebClient,
  command: {
    teamId: string;
    userId: string;
    enterpriseId?: string | undefined;
    channelId: string;
    at: string | null;
    cadence: Cadence;
    /** The register whose history the digest reports (named first, the channel's, or main). */
    register: Pick<ChosenRegister, "key" | "name" | "several">;
    lang: Lang;
  },
): Promise<Produced> {
  const { lang } = command;
  const t = DIGEST_TEXT[lang];
  const manager = await checkManager(deps, client, command);
  if (!manager.allowed) return { reply: notAllowedMessage("digest", lang), log: { outcome: "not_allowed" } };
  const { key } = command.register;
  if (!(await deps.stores.credentials.get(key))) throw new NotConnectedError(key);
  if (command.at === null) {
    const removed = await deps.digests.remove(key, command.channelId, command.cadence);
    const text = removed ? t.off(command.cadence) : t.noneSet(command.cadence);
    return { reply: ephemeral(text, text), log: { outcome: "digest_set", digest: `off ${command.cadence}` } };
  }
  const zone = (await readerZone(client, command.userId)) ?? deps.serviceTimeZone;
  const refused = await tellChannel(
    client,
    command,
    t.channelNote(command.cadence, command.at, zone, `<@${command.userId}>`),
    lang,
  );
  if (refused) return refused;
  await deps.digests.set(key, {
    channel: command.channelId,
    cadence: command.cadence,
    at: command.at,
    zone,
    since: deps.now().getTime(),
    by: command.userId,
  });
  return {
    reply: ephemeral(
      t.on(command.cadence, command.at, zone),
      t.onFallback(command.cadence, command.at, zone),
    ),
    log: { outcome: "digest_set", digest: `${command.at} ${command.cadence}` },
  };
}

/**
 * The channel is told of the digest first, which also shows Kassa can post there; undefined when it
 * could, else the reply saying Kassa is not in the channel.
 */
async function tellChannel(
  client: webApi.WebClient,
  command: { channelId: string; register: Pick<ChosenRegister, "name" | "several"> },
  note: string,
  lang: Lang,
): Promise<Produced | undefined> {
  const named = command.register.several ? escapeMrkdwn(command.register.name) : undefined;
  try {
    await client.chat.postMessage({
      channel: command.channelId,
      text: named === undefined ? note : `${REGISTERS_TEXT[lang].feedOf(named)}: ${note}`,
    });
    return undefined;
  } catch (error) {
    const code = slackErrorCode(error);
    if (slackFailureOfCode(code) !== "not_in_channel") throw error;
    const text = DIGEST_TEXT[lang].notInChannel;
    return { reply: ephemeral(text, text), log: { outcome: "feed_not_in_channel", slackError: code } };
  }
}
