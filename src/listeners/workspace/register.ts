import type { types } from "@slack/bolt";
import { maskLogin } from "../../blocks/admin.js";
import type { SlackMessage } from "../../blocks/message.js";
import { escapeMrkdwn, safeText } from "../../blocks/mrkdwn.js";
import type { RegisterLine } from "../../blocks/registers.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { REGISTERS_TEXT } from "../../i18n/registers.js";
import type { Stores } from "../../store/index.js";
import { MAIN_REGISTER, type RegisterDirectory, registerKey, registerOfKey } from "../../store/registers.js";

/**
 * The register a command works on: named by the command's first word, else the channel's (an admin's
 * `/invoice use`), else main. `several`: the workspace has more than one, so replies say which.
 */
export type ChosenRegister = {
  name: string;
  /** The key its state is kept under (main's is the team id). */
  key: string;
  how: "named" | "channel" | "default";
  several: boolean;
  /** The command's text without the register's name. */
  rest: string;
  /** Every register of the workspace, main first. */
  all: string[];
  /** The registers this channel may use: each kept to chosen channels is left out elsewhere. */
  usableHere: string[];
  /** The channels the chosen register is kept to, when it is kept to some and this is not one. */
  keptTo?: string[] | undefined;
};

/** Reads the workspace's directory once; a workspace with only main reads as before registers. */
export async function chooseRegister(
  registers: Pick<RegisterDirectory, "get">,
  team: string,
  channel: string | undefined,
  text: string,
): Promise<ChosenRegister> {
  const directory = await registers.get(team);
  const others = Object.keys(directory.others).sort();
  const all = [MAIN_REGISTER, ...others];
  const trimmed = text.trim();
  const first = /^(\S+)(?:\s+([\s\S]*))?$/.exec(trimmed);
  const word = first?.[1]?.toLowerCase();
  // A register kept to chosen channels is used there only (a channel unknown, a button: anywhere).
  const usable = (name: string) => {
    const kept = directory.limits[name];
    return kept === undefined || channel === undefined || kept.includes(channel);
  };
  const base = { several: others.length > 0, all, usableHere: all.filter(usable) };
  const chosen = (name: string, how: ChosenRegister["how"], rest: string): ChosenRegister => ({
    ...base,
    name,
    key: registerKey(team, name),
    how,
    rest,
    keptTo: usable(name) ? undefined : directory.limits[name],
  });
  if (word !== undefined && all.includes(word)) return chosen(word, "named", first?.[2] ?? "");
  const bound = channel === undefined ? undefined : directory.channels[channel];
  if (bound !== undefined && others.includes(bound)) return chosen(bound, "channel", trimmed);
  return chosen(MAIN_REGISTER, "default", trimmed);
}

/** The answer to a command that asked for a register kept to other channels: nothing read. */
export function keptElsewhereReply(chosen: ChosenRegister, lang: Lang): SlackMessage | undefined {
  if (!chosen.keptTo) return undefined;
  const text = keptElsewhereText(chosen, lang);
  return ephemeral(text, text);
}

/** Where a register kept to other channels is used, in words (a form's field error says it too). */
export function keptElsewhereText(chosen: ChosenRegister, lang: Lang): string {
  return REGISTERS_TEXT[lang].keptElsewhere(escapeMrkdwn(chosen.name), chosen.keptTo ?? []);
}

/** The register a reply came from, as its last line, where the workspace has several. */
export function withRegisterFooter(reply: SlackMessage, chosen: ChosenRegister, lang: Lang): SlackMessage {
  if (!chosen.several) return reply;
  const footer: types.ContextBlock = {
    type: "context",
    elements: [{ type: "mrkdwn", text: REGISTERS_TEXT[lang].footer(escapeMrkdwn(chosen.name), chosen.how) }],
  };
  // Block Kit allows 50 blocks in a message; a reply already that long keeps its own last block.
  return reply.blocks.length >= 50 ? reply : { ...reply, blocks: [...reply.blocks, footer] };
}

/**
 * A register a button or form names (its value carries only the name): undefined when the workspace
 * has no such register any more, so the caller answers "out of date" instead of using another.
 * `channel`: where it is to be used (a feed's channel), so one kept to other channels has `keptTo`.
 */
export async function registerNamed(
  registers: Pick<RegisterDirectory, "get">,
  team: string,
  name: string | undefined,
  channel?: string,
): Promise<ChosenRegister | undefined> {
  const chosen = await chooseRegister(registers, team, channel, name ?? MAIN_REGISTER);
  return chosen.how === "named" && chosen.rest === "" ? chosen : undefined;
}

/** Where to look for an invoice seen in `channel`: its register first, then the others it may use. */
export async function registersInOrderHere(
  registers: Pick<RegisterDirectory, "get">,
  team: string,
  channel: string,
): Promise<Array<{ key: string; name: string }>> {
  return registersInOrder(await chooseRegister(registers, team, channel, ""));
}

/**
 * Where to look for an invoice: the chosen register first, then the workspace's others this channel
 * may use (one kept to other channels is not asked: its invoices are not shown here).
 */
export function registersInOrder(chosen: ChosenRegister): Array<{ key: string; name: string }> {
  const team = registerOfKey(chosen.key).team;
  const order = [chosen.name, ...chosen.usableHere.filter((name) => name !== chosen.name)];
  return order
    .filter((name) => chosen.usableHere.includes(name))
    .map((name) => ({
      name,
      key: registerKey(team, name),
    }));
}

/** Each register's line for /invoice status and App Home: read without opening any secret. */
export async function registerLines(
  stores: Pick<Stores, "credentials" | "registers">,
  team: string,
): Promise<RegisterLine[]> {
  const directory = await stores.registers.get(team);
  const names = [MAIN_REGISTER, ...Object.keys(directory.others).sort()];
  const used = (name: string) =>
    Object.entries(directory.channels)
      .filter(([, register]) => register === name)
      .map(([channel]) => channel);
  return Promise.all(
    names.map(async (name): Promise<RegisterLine> => {
      const base = { name, channels: used(name), callbacks: false, connectedBy: undefined, login: undefined };
      const info = await stores.credentials.info(registerKey(team, name)).catch(() => "unreadable" as const);
      if (info === "unreadable") return { ...base, state: "unreadable" };
      if (!info) return { ...base, state: "not_connected" };
      return {
        ...base,
        login: `\`${safeText(maskLogin(info.login), 40)}\``,
        state: info.otherKey ? "other_key" : "connected",
        callbacks: info.hasSalt,
        connectedBy: info.connectedBy ?? undefined,
      };
    }),
  );
}
