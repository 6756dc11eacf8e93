import type { Lang } from "./lang.js";

/** What Kassa says about a workspace's several cash registers. */
export type RegistersText = {
  /** The footer of a reply in a workspace with several registers: which one answered. */
  footer: (name: string, how: "named" | "channel" | "default") => string;
  /** `/invoice use` alone. */
  channelUses: (name: string, how: "channel" | "default", others: string[]) => string;
  /** `/invoice use NAME` done. */
  nowUses: (name: string, user: string) => string;
  unknownRegister: (name: string, known: string[]) => string;
  useNotAllowed: string;
  useOnlyOne: string;
  /** A register kept to other channels (its connect form), asked for here: nothing read. */
  keptElsewhere: (name: string, channels: string[]) => string;
  /** Where a feed or a digest belongs to one of several registers: which. */
  feedOf: (name: string) => string;
  /** `/invoice status` in a workspace with several: one line per register. */
  listHeading: string;
  listLine: (line: RegisterLine) => string;
};

/** What /invoice status says of one register (mrkdwn-safe parts only). */
export type RegisterLine = {
  name: string;
  /** The login, masked and escaped; undefined: not connected. */
  login: string | undefined;
  state: "connected" | "other_key" | "unreadable" | "not_connected";
  callbacks: boolean;
  /** A user id, or "cli". */
  connectedBy: string | undefined;
  /** Channels that use it. */
  channels: string[];
};

const by = (who: string | undefined) => (who === undefined ? "" : who === "cli" ? "the CLI" : `<@${who}>`);
const byRu = (who: string | undefined) =>
  who === undefined ? "" : who === "cli" ? "через CLI" : `<@${who}>`;
const channels = (ids: string[]) => ids.map((id) => `<#${id}>`).join(", ");

const list = (names: string[]) => names.map((name) => `\`${name}\``).join(", ");

export const REGISTERS_TEXT: Record<Lang, RegistersText> = {
  en: {
    footer: (name, how) =>
      how === "named"
        ? `Register: *${name}* (named in the command)`
        : how === "channel"
          ? `Register: *${name}* (this channel's register)`
          : `Register: *${name}* (this channel has no register set; an admin can set one with \`/invoice use NAME\`)`,
    channelUses: (name, how, others) =>
      `${how === "channel" ? `This channel uses the register *${name}*.` : `This channel has no register set, so it uses *${name}*.`} The workspace's registers: ${list(others)}. An admin can change it with \`/invoice use NAME\`; anyone can name one for a single command, as in \`/balance ${others.find((other) => other !== name) ?? name}\`.`,
    nowUses: (name, user) =>
      `<@${user}> made *${name}* this channel's register: every command here now works on it, unless it names another.`,
    unknownRegister: (name, known) =>
      `This workspace has no register named *${name}*. Its registers: ${list(known)}.`,
    useNotAllowed:
      "Only a workspace admin can choose a channel's register. Anyone can still name a register at the start of a command, such as `/balance main`.",
    useOnlyOne:
      "This workspace has one cash register, *main*, and every channel uses it. An admin can connect another with `/invoice connect`.",
    feedOf: (name) => `Register *${name}*`,
    keptElsewhere: (name, channels) =>
      `The register *${name}* is used only in ${channels.map((id) => `<#${id}>`).join(", ")}, as an admin chose in its connect form: nothing of it is shown here. Ask there, or name another register.`,
    listHeading: "*Cash registers*",
    listLine: (line) =>
      `• *${line.name}*: ${
        {
          connected: `connected (${line.login})`,
          other_key: `key failing: sealed with another CREDENTIALS_KEY (${line.login})`,
          unreadable: "stored credentials cannot be read; reconnect it",
          not_connected: "not connected",
        }[line.state]
      }${line.state === "connected" ? (line.callbacks ? ", instant notifications on" : ", instant notifications off") : ""}${line.connectedBy ? `, connected by ${by(line.connectedBy)}` : ""}${line.channels.length > 0 ? `; used in ${channels(line.channels)}` : ""}`,
  },
  ru: {
    footer: (name, how) =>
      how === "named"
        ? `Касса: *${name}* (названа в команде)`
        : how === "channel"
          ? `Касса: *${name}* (касса этого канала)`
          : `Касса: *${name}* (у этого канала касса не выбрана; администратор может выбрать её командой \`/invoice use ИМЯ\`)`,
    channelUses: (name, how, others) =>
      `${how === "channel" ? `Этот канал работает с кассой *${name}*.` : `У этого канала касса не выбрана, поэтому он работает с *${name}*.`} Кассы пространства: ${list(others)}. Администратор может сменить её командой \`/invoice use ИМЯ\`; для одной команды любой может назвать кассу первым словом, например \`/balance ${others.find((other) => other !== name) ?? name}\`.`,
    nowUses: (name, user) =>
      `<@${user}> выбрал(а) для этого канала кассу *${name}*: все команды здесь теперь работают с ней, если не названа другая.`,
    unknownRegister: (name, known) => `В этом пространстве нет кассы *${name}*. Его кассы: ${list(known)}.`,
    useNotAllowed:
      "Выбрать кассу канала может только администратор пространства. Назвать кассу для одной команды может любой, например `/balance main`.",
    useOnlyOne:
      "В этом пространстве одна касса, `main`, и все каналы работают с ней. Администратор может подключить ещё одну командой `/invoice connect`.",
    feedOf: (name) => `Касса *${name}*`,
    keptElsewhere: (name, channels) =>
      `Касса *${name}* используется только в ${channels.map((id) => `<#${id}>`).join(", ")}, как выбрал администратор в форме подключения: здесь её данные не показываются. Спросите там или назовите другую кассу.`,
    listHeading: "*Кассы*",
    listLine: (line) =>
      `• *${line.name}*: ${
        {
          connected: `подключена (${line.login})`,
          other_key: `ключ не подходит: зашифрована другим CREDENTIALS_KEY (${line.login})`,
          unreadable: "сохранённые данные не читаются; подключите её заново",
          not_connected: "не подключена",
        }[line.state]
      }${line.state === "connected" ? (line.callbacks ? ", мгновенные уведомления включены" : ", мгновенные уведомления выключены") : ""}${line.connectedBy ? `, подключил(а) ${byRu(line.connectedBy)}` : ""}${line.channels.length > 0 ? `; каналы: ${channels(line.channels)}` : ""}`,
  },
};
