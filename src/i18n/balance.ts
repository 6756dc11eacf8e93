import { ERROR_TEXT } from "./errors.js";
import type { Lang } from "./lang.js";
import { counted, pluralForm } from "./plural.js";

/** `/balance`'s words. Amounts arrive formatted, codes escaped, dates as Slack tokens. */
export type BalanceText = {
  header: string;
  allZeroNothing: string;
  allZero: string;
  more: (count: number) => string;
  unreadable: (count: number) => string;
  noRates: string;
  unpriced: (currencies: string) => string;
  implausible: (currencies: string) => string;
  total: (value: string) => string;
  totalApprox: (value: string) => string;
  approxNote: (readAt: string) => string;
  fallbackTotal: (value: string) => string;
  fallbackApprox: (value: string) => string;
  empty: (codes: string) => string;
  readAt: (at: string) => string;
  fallback: (amounts: string | undefined) => string;
  notAllowed: string;
  notAllowedHow: string;
  notAllowedFallback: string;
  help: string;
  helpOnlyYou: string;
  helpEveryone: string;
  helpAdmins: string;
  helpFallback: string;
  usage: (input: string) => string;
  usageFallback: string;
};

const en: BalanceText = {
  header: "Cash register balance",
  allZeroNothing: "Every balance is 0: there is no money on the cash register.",
  allZero: "Every balance is 0.",
  more: (count) => `…and ${count} more non-zero balances.`,
  unreadable: (count) =>
    `:warning: No total in RUB: ${counted("en", count, { one: "balance", other: "balances" })} in the payment service's answer could not be read and ${count === 1 ? "is" : "are"} not shown.`,
  noRates:
    ":hourglass: No total in RUB right now: the exchange rates could not be read. The balances above are exact; try again in a minute for the total.",
  unpriced: (currencies) =>
    `:information_source: No total in RUB: the payment service gave no rate for ${currencies}.`,
  implausible: (currencies) =>
    `:warning: No total in RUB: the payment service's exchange rate for ${currencies} looks wrong (it makes the balance worth less than a kopeck or more than all the roubles in circulation). The balances above are exact; try again later for the total.`,
  total: (value) => `*Total: ${value}*`,
  totalApprox: (value) => `*Total ≈ ${value}* _(approximate)_`,
  approxNote: (at) =>
    `The total converts each balance at the payment service's rouble rate read ${at}, rounded to kopecks; the balances themselves are exact.`,
  fallbackTotal: (value) => `total ${value}`,
  fallbackApprox: (value) => `total about ${value} (approximate)`,
  empty: (codes) => `Empty (0): ${codes}.`,
  readAt: (at) => `Read from the payment service ${at}. Only you can see this reply.`,
  fallback: (amounts) => `Cash register balance: ${amounts ?? "every balance is 0"}`,
  notAllowed: `:lock: The cash register's balance is shown only to ${ERROR_TEXT.en.whoMayManage}. Ask one of them.`,
  notAllowedHow:
    "An admin can let everyone in the workspace see it: Kassa's App Home tab → _Update_ (or `/invoice connect`) → _Who may see the balance_.",
  notAllowedFallback:
    "Only workspace admins and owners can see the cash register's balance. Ask one of them.",
  help: "*`/balance`* shows how much is on this workspace's cash register: each method's balance in its own currency, exact, non-zero ones first, and an approximate total in roubles at the payment service's current rates.",
  helpOnlyYou: "The reply is visible only to you.",
  helpEveryone: "Everyone in this workspace may use it (an admin chose so in the connection settings).",
  helpAdmins: `Only ${ERROR_TEXT.en.whoMayManage} may use it, unless an admin lets everyone in the connection settings.`,
  helpFallback: "/balance shows the cash register's balances, visible only to you.",
  usage: (input) =>
    `:information_source: \`/balance\` takes no text, got ${input}. Type \`/balance\` for the balances or \`/balance help\` for more.`,
  usageFallback: "Usage: /balance (or /balance help)",
};

const BALANCES = { one: "баланс", few: "баланса", many: "балансов", other: "баланса" };

const ru: BalanceText = {
  header: "Баланс кассы",
  allZeroNothing: "Все балансы равны 0: денег на кассе нет.",
  allZero: "Все балансы равны 0.",
  more: (count) =>
    `…и ещё ${counted("ru", count, { one: "ненулевой баланс", few: "ненулевых баланса", many: "ненулевых балансов", other: "ненулевого баланса" })}.`,
  unreadable: (count) =>
    `:warning: Итога в рублях нет: ${counted("ru", count, BALANCES)} из ответа платёжного сервиса не удалось прочитать, ${pluralForm("ru", count, { one: "он не показан", other: "они не показаны" })}.`,
  noRates:
    ":hourglass: Итога в рублях сейчас нет: не удалось прочитать курсы. Балансы выше точные; итог можно запросить снова через минуту.",
  unpriced: (currencies) =>
    `:information_source: Итога в рублях нет: платёжный сервис не дал курса для ${currencies}.`,
  implausible: (currencies) =>
    `:warning: Итога в рублях нет: курс платёжного сервиса для ${currencies} выглядит неверным (по нему баланс стоит меньше копейки или больше всех рублей в обращении). Балансы выше точные; итог можно запросить позже.`,
  total: (value) => `*Итого: ${value}*`,
  totalApprox: (value) => `*Итого ≈ ${value}* _(приблизительно)_`,
  approxNote: (at) =>
    `Итог пересчитывает каждый баланс по рублёвому курсу платёжного сервиса на ${at} с округлением до копеек; сами балансы точные.`,
  fallbackTotal: (value) => `итого ${value}`,
  fallbackApprox: (value) => `итого около ${value} (приблизительно)`,
  empty: (codes) => `Пусто (0): ${codes}.`,
  readAt: (at) => `Прочитано из платёжного сервиса ${at}. Этот ответ видите только вы.`,
  fallback: (amounts) => `Баланс кассы: ${amounts ?? "все балансы равны 0"}`,
  notAllowed: `:lock: Баланс кассы видят только ${ERROR_TEXT.ru.whoMayManage}. Обратитесь к одному из них.`,
  notAllowedHow:
    "Администратор может открыть его всем в рабочем пространстве: вкладка «Главная» приложения Kassa → _Изменить_ (или `/invoice connect`) → _Кто видит баланс_.",
  notAllowedFallback:
    "Баланс кассы видят только администраторы и владельцы рабочего пространства. Обратитесь к одному из них.",
  help: "*`/balance`* показывает, сколько денег на кассе этого рабочего пространства: баланс каждого метода в его валюте, точно, сначала ненулевые, и приблизительный итог в рублях по текущим курсам платёжного сервиса.",
  helpOnlyYou: "Ответ видите только вы.",
  helpEveryone:
    "Ей может пользоваться любой в этом рабочем пространстве (так решил администратор в настройках подключения).",
  helpAdmins: `Ей могут пользоваться только ${ERROR_TEXT.ru.whoMayManage}, если администратор не открыл её всем в настройках подключения.`,
  helpFallback: "/balance показывает балансы кассы, только вам.",
  usage: (input) =>
    `:information_source: \`/balance\` не принимает текста, а получила ${input}. Наберите \`/balance\`, чтобы увидеть балансы, или \`/balance help\` для справки.`,
  usageFallback: "Использование: /balance (или /balance help)",
};

export const BALANCE_TEXT: Record<Lang, BalanceText> = { en, ru };
