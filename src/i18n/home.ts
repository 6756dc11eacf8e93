import type { Lang } from "./lang.js";

/** App Home's words. */
export type HomeText = {
  update: string;
  connect: string;
  disconnect: string;
  disconnectTitle: string;
  disconnectText: string;
  cancel: string;
  adminConnects: string;
  howTo: (privately: boolean) => string[];
};

const en: HomeText = {
  update: "Update",
  connect: "Connect",
  disconnect: "Disconnect",
  disconnectTitle: "Disconnect?",
  disconnectText:
    "The stored credentials are deleted; the commands stop working until someone connects again.",
  cancel: "Cancel",
  adminConnects: "A workspace admin or owner can connect it here or with `/invoice connect`.",
  howTo: (privately) => [
    "*How to use it*",
    "• `/invoice &lt;id or payment link&gt;`: an invoice's state, amounts with their currencies, commissions and times (in your timezone). *Refresh* updates the card.",
    "• `/paymethods [filter]`: the payment methods and what each costs; filter by code, name or currency (`btc`, `card`, `RUB`), or `enabled` / `disabled`.",
    "• `/invoice new [amount] [currency] [description]`: create an invoice (a payment link) in a form; its card is posted in the channel. Admins only unless an admin lets everyone (connection settings).",
    "• `/balance`: how much is on the cash register, per method and in total; only you see the reply, and only admins may ask unless an admin lets everyone (connection settings).",
    "• Paste a payment page link in a channel: Kassa adds a short card under it with the invoice's state, amount and expiry.",
    `• Invoice cards and method lists go ${privately ? "privately to whoever asks, with a *Share in channel* button" : "to the channel"}.`,
    "• `/invoice status` shows the connection; `/invoice help`, `/paymethods help` and `/balance help` explain the rest.",
  ],
};

const ru: HomeText = {
  update: "Изменить",
  connect: "Подключить",
  disconnect: "Отключить",
  disconnectTitle: "Отключить кассу?",
  disconnectText:
    "Сохранённые данные доступа будут удалены; команды перестанут работать, пока кассу не подключат снова.",
  cancel: "Отмена",
  adminConnects:
    "Администратор или владелец рабочего пространства может подключить кассу здесь или командой `/invoice connect`.",
  howTo: (privately) => [
    "*Как пользоваться*",
    "• `/invoice &lt;номер или ссылка на оплату&gt;`: статус счёта, суммы с валютами, комиссии и время (в вашем часовом поясе). *Обновить* освежает карточку.",
    "• `/paymethods [фильтр]`: методы оплаты и их стоимость; фильтр — по коду, названию или валюте (`btc`, `card`, `RUB`) или `enabled` / `disabled`.",
    "• `/invoice new [сумма] [валюта] [описание]`: создать счёт (ссылку на оплату) в форме; его карточка публикуется в канале. Только для администраторов, если администратор не открыл это всем (настройки подключения).",
    "• `/balance`: сколько денег на кассе, по методам и всего; ответ видите только вы, а спрашивать могут только администраторы, если администратор не открыл это всем (настройки подключения).",
    "• Вставьте ссылку на страницу оплаты в канал: Kassa добавит под ней короткую карточку со статусом счёта, суммой и сроком действия.",
    `• Карточки счетов и списки методов ${privately ? "видит только тот, кто спросил, с кнопкой *Показать в канале*" : "публикуются в канале"}.`,
    "• `/invoice status` показывает подключение; `/invoice help`, `/paymethods help` и `/balance help` объясняют остальное.",
  ],
};

export const HOME_TEXT: Record<Lang, HomeText> = { en, ru };
