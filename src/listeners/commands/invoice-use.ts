import type { webApi } from "@slack/bolt";
import { escapeMrkdwn } from "../../blocks/mrkdwn.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { REGISTERS_TEXT } from "../../i18n/registers.js";
import { MAIN_REGISTER } from "../../store/registers.js";
import type { Note, Produced } from "../contexts/outcome.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";

type UseAsker = {
  teamId: string;
  userId: string;
  enterpriseId?: string | undefined;
  channelId: string;
  register: ChosenRegister;
};

/**
 * `/invoice use` says which register the channel uses; `/invoice use NAME` (admins) makes NAME the
 * channel's register, said in the channel so everyone there knows what their commands now read.
 */
export async function useRegisterCommand(
  deps: ManagerDeps,
  client: webApi.WebClient,
  asker: UseAsker,
  name: string | null,
  lang: Lang,
  note: Note,
): Promise<Produced> {
  const t = REGISTERS_TEXT[lang];
  const { register } = asker;
  if (!register.several)
    return { reply: ephemeral(t.useOnlyOne, t.useOnlyOne), log: { outcome: "one_register" } };
  if (name === null) {
    const current = await deps.stores.registers.get(asker.teamId);
    const bound = current.channels[asker.channelId];
    const text = t.channelUses(
      escapeMrkdwn(bound ?? MAIN_REGISTER),
      bound === undefined ? "default" : "channel",
      register.all.map(escapeMrkdwn),
    );
    return { reply: ephemeral(text, text), log: { outcome: "register_shown" } };
  }
  const manager = await checkManager(deps, client, asker);
  if (!manager.allowed)
    return { reply: ephemeral(t.useNotAllowed, t.useNotAllowed), log: { outcome: "not_allowed" } };
  if (!register.all.includes(name)) {
    const text = t.unknownRegister(escapeMrkdwn(name), register.all.map(escapeMrkdwn));
    return { reply: ephemeral(text, text), log: { outcome: "unknown_register" } };
  }
  const before = (await deps.stores.registers.get(asker.teamId)).channels[asker.channelId] ?? MAIN_REGISTER;
  await deps.stores.registers.useInChannel(asker.teamId, asker.channelId, name);
  note({ register: name });
  note({
    audit: {
      object: `channel ${asker.channelId}`,
      before: { register: before },
      after: { register: name },
    },
  });
  const text = t.nowUses(escapeMrkdwn(name), asker.userId);
  return {
    reply: { ...ephemeral(text, text), response_type: "in_channel" },
    log: { outcome: "register_set" },
  };
}
