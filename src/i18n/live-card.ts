import type { Lang } from "./lang.js";
import { counted } from "./plural.js";

/** What a live card says about its updates, and the thread note of a change. Dates and mentions arrive as Slack tokens. */
export type LiveCardText = {
  watching: (lastChecked: string) => string;
  watchingPrivate: (lastChecked: string) => string;
  workspaceFull: (limit: number) => string;
  invoiceFull: (limit: number) => string;
  askerFull: (limit: number) => string;
  notInChannel: string;
  cannotPost: string;
  final: string;
  expired: string;
  credentials: string;
  maxHours: (hours: number) => string;
  stopped: (user: string) => string;
  stop: string;
  /** The state an unpaid invoice past its expiry is told with (the service keeps it notpayed). */
  expiredState: string;
  /** "Invoice 7154…: Not paid → Paid · 1,500.00 RUB" (plain text, escaped afterwards). */
  notice: (id: string, from: string, to: string, amount: string) => string;
};

const en: LiveCardText = {
  watching: (at) =>
    `:satellite_antenna: Live: Kassa is watching this invoice and updates this card when it changes. Last checked ${at}.`,
  watchingPrivate: (at) =>
    `:satellite_antenna: Kassa is watching this invoice and will send you a direct message when its state changes. Last checked ${at}.`,
  workspaceFull: (limit) =>
    `Not updated live: this workspace already has ${limit} invoices being watched, the most Kassa allows. Press Refresh for the latest.`,
  invoiceFull: (limit) =>
    `Not updated live: this invoice already has ${limit} live cards. Press Refresh for the latest.`,
  askerFull: (limit) =>
    `Not updated live: you already have live cards on ${limit} invoices, your share of what Kassa watches in this workspace. Press Stop updating on one you no longer need, or Refresh here for the latest.`,
  notInChannel: "Live updates need Kassa in this channel: type `/invite @Kassa` here, then ask again.",
  cannotPost:
    "Live updates are off for this card: Kassa could not post it as its own message (a workspace admin may need to reinstall Kassa to grant it `chat:write`).",
  final: "Final state: Kassa stopped watching this invoice.",
  expired: "Expired without payment: Kassa stopped watching this invoice.",
  credentials:
    ":electric_plug: Kassa stopped watching: the cash register's credentials no longer work. A workspace admin can reconnect with `/invoice connect`.",
  maxHours: (hours) => `Kassa stopped watching this invoice after ${hours} h. Press Refresh for the latest.`,
  stopped: (user) => `Live updates stopped by ${user}. Press Refresh for the latest.`,
  stop: "Stop updating",
  expiredState: "Expired",
  notice: (id, from, to, amount) => `Invoice ${id}: ${from} → ${to}${amount ? ` · ${amount}` : ""}`,
};

const INVOICES_IN = { one: "счёте", few: "счетах", many: "счетах", other: "счетах" };
const LIVE_CARDS = {
  one: "живая карточка",
  few: "живые карточки",
  many: "живых карточек",
  other: "живой карточки",
};

const ru: LiveCardText = {
  watching: (at) =>
    `:satellite_antenna: В реальном времени: Kassa следит за этим счётом и обновит карточку, когда он изменится. Последняя проверка ${at}.`,
  watchingPrivate: (at) =>
    `:satellite_antenna: Kassa следит за этим счётом и напишет вам в личные сообщения, когда изменится его статус. Последняя проверка ${at}.`,
  workspaceFull: (limit) =>
    `Не обновляется в реальном времени: в этом рабочем пространстве Kassa уже следит за максимумом счетов (${limit}). Нажмите «Обновить», чтобы увидеть текущее состояние.`,
  invoiceFull: (limit) =>
    `Не обновляется в реальном времени: у этого счёта уже ${counted("ru", limit, LIVE_CARDS)}. Нажмите «Обновить», чтобы увидеть текущее состояние.`,
  askerFull: (limit) =>
    `Не обновляется в реальном времени: у вас уже есть живые карточки на ${counted("ru", limit, INVOICES_IN)}, это ваша доля того, за чем Kassa следит в этом рабочем пространстве. Нажмите «Остановить обновления» на ненужной карточке или «Обновить» здесь, чтобы увидеть текущее состояние.`,
  notInChannel:
    "Для обновлений в реальном времени Kassa должна быть в этом канале: наберите здесь `/invite @Kassa` и запросите счёт снова.",
  cannotPost:
    "Обновления в реальном времени для этой карточки отключены: Kassa не смогла опубликовать её своим сообщением (возможно, администратору рабочего пространства нужно переустановить Kassa, чтобы выдать ей право `chat:write`).",
  final: "Итоговый статус: Kassa больше не следит за этим счётом.",
  expired: "Истёк без оплаты: Kassa больше не следит за этим счётом.",
  credentials:
    ":electric_plug: Kassa перестала следить: данные доступа к кассе больше не действуют. Администратор рабочего пространства может подключить кассу заново командой `/invoice connect`.",
  maxHours: (hours) =>
    `Kassa перестала следить за этим счётом через ${hours} ч. Нажмите «Обновить», чтобы увидеть текущее состояние.`,
  stopped: (user) =>
    `Обновления в реальном времени остановил(а) ${user}. Нажмите «Обновить», чтобы увидеть текущее состояние.`,
  stop: "Остановить обновления",
  expiredState: "Истёк",
  notice: (id, from, to, amount) => `Счёт ${id}: ${from} → ${to}${amount ? ` · ${amount}` : ""}`,
};

export const LIVE_CARD_TEXT: Record<Lang, LiveCardText> = { en, ru };
