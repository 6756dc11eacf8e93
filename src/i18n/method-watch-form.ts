import type { Lang } from "./lang.js";
import { counted } from "./plural.js";

/** `/paymethods watch`: its form, what the form refuses, and what is said once it is saved or off. */
export type MethodWatchFormText = {
  title: string;
  save: string;
  cancel: string;
  intro: (register: string) => string;
  /** The register named in a sentence, where the workspace has several (" of cash register *shop*"). */
  ofRegister: (register: string) => string;
  channel: string;
  channelHint: string;
  mention: string;
  mentionHint: string;
  failureHeader: string;
  sharePercent: string;
  sharePercentHint: string;
  minInvoices: string;
  minInvoicesHint: string;
  windowMinutes: string;
  windowMinutesHint: string;
  silenceHeader: string;
  silence: string;
  silenceModes: { usual: string; fixed: string; off: string };
  factor: string;
  factorHint: string;
  floorHours: string;
  floorHoursHint: string;
  hours: string;
  hoursHint: string;
  footer: string;
  problems: {
    required: string;
    channel: string;
    silence: string;
    range: (min: number, max: number) => string;
    tooMany: (max: number) => string;
  };
  notAllowed: string;
  outdated: string;
  notConnected: string;
  failureRule: (share: number, invoices: number, minutes: number) => string;
  silenceRule: {
    usual: (factor: number, floor: number) => string;
    fixed: (hours: number) => string;
    off: string;
  };
  outsideRule: string;
  announceOn: (by: string, register: string) => string;
  announceChanged: (by: string, register: string) => string;
  alertsHere: string;
  alertsHereMention: (people: string) => string;
  firstCheck: (minutes: number) => string;
  announceFallback: string;
  saved: (register: string, channel: string) => string;
  savedFallback: string;
  notInChannel: (channel: string) => string;
  offAnnounce: (by: string, register: string) => string;
  offAnnounceFallback: string;
  off: (register: string) => string;
  offFallback: string;
  wasOff: (register: string) => string;
  wasOffFallback: string;
};

const minutesEn = (count: number) => counted("en", count, { one: "minute", other: "minutes" });
/** "в течение 5 минут", "за 60 минут", "не меньше 8 счетов", "в 4 раза". */
const minutesRuGen = (count: number) =>
  counted("ru", count, { one: "минуты", few: "минут", many: "минут", other: "минуты" });
const minutesRuAcc = (count: number) =>
  counted("ru", count, { one: "минуту", few: "минуты", many: "минут", other: "минуты" });
const invoicesRuGen = (count: number) =>
  counted("ru", count, { one: "счёта", few: "счетов", many: "счетов", other: "счёта" });
const timesRu = (count: number) =>
  counted("ru", count, { one: "раз", few: "раза", many: "раз", other: "раза" });

const en: MethodWatchFormText = {
  title: "Payment methods watch",
  save: "Save",
  cancel: "Cancel",
  ofRegister: (register) => ` of cash register ${register}`,
  intro: (register) =>
    `Watch the payment methods of cash register ${register}: an alert when a method fails or stops being paid, and a note when a method is changed outside Kassa.`,
  channel: "Alert channel",
  channelHint: "Kassa must be in it: invite it with /invite @Kassa.",
  mention: "Mention in alerts",
  mentionHint: "Who should hear of an alert at once (up to 10 people).",
  failureHeader:
    "*When a method fails*: an alert when enough of its invoices fail or are unavailable. Wrong amounts are counted apart, test payments ignored.",
  sharePercent: "Failed share, %",
  sharePercentHint: "Alert when at least this share of the method's invoices failed.",
  minInvoices: "At least this many invoices",
  minInvoicesHint: "Fewer invoices than this say nothing: one failure of two is not news.",
  windowMinutes: "Within minutes",
  windowMinutesHint: "The invoices created in the last this many minutes are counted.",
  silenceHeader:
    "*When a method goes silent*: an alert when a method that is usually paid has not been paid for a while.",
  silence: "Silence rule",
  silenceModes: {
    usual: "From the register's history: its usual gap, times a factor",
    fixed: "After a fixed number of hours",
    off: "Off: no silence alerts",
  },
  factor: "Times the usual gap",
  factorHint: "The usual gap between payments at that hour of day, over the last 28 days, times this.",
  floorHours: "But never less than, hours",
  floorHoursHint: "Quiet hours are not news: the alert waits at least this long.",
  hours: "Fixed hours without a payment",
  hoursHint: "Only for the fixed rule: an alert after this many hours without a paid invoice.",
  footer:
    "Changes made outside Kassa (a method switched on or off, a surcharge changed) are posted in the alert channel too. `/paymethods watch` changes these settings; `/paymethods watch off` turns the watch off.",
  problems: {
    required: "Fill this in.",
    channel: "Choose the channel for the alerts.",
    silence: "Choose a silence rule.",
    range: (min, max) => `A whole number from ${min} to ${max}.`,
    tooMany: (max) => `At most ${max} people.`,
  },
  notAllowed: "Only workspace admins and owners can set up the payment methods watch. Ask one of them.",
  outdated: "This form is out of date. Close it and run /paymethods watch again.",
  notConnected: "This cash register is not connected any more. Connect it, then try again.",
  failureRule: (share, invoices, minutes) =>
    `*Failures*: at least ${share} % of at least ${counted("en", invoices, { one: "invoice", other: "invoices" })} with one method failed or unavailable within ${minutesEn(minutes)} (wrong amounts counted apart, test payments ignored).`,
  silenceRule: {
    usual: (factor, floor) =>
      `*Silence*: no paid invoice with a method for ${factor} times its usual gap at that hour of day over the last 28 days, never less than ${floor} h. A method never paid here is not watched for silence.`,
    fixed: (hours) => `*Silence*: no paid invoice with a usually paid method for ${hours} h.`,
    off: "*Silence*: not watched.",
  },
  outsideRule:
    "*Changes made outside Kassa* (a method switched on or off, a surcharge changed) are posted here.",
  announceOn: (by, register) => `:eyes: ${by} turned on the payment methods watch${register}.`,
  announceChanged: (by, register) => `:eyes: ${by} changed the payment methods watch${register}.`,
  alertsHere: "Its alerts come here.",
  alertsHereMention: (people) => `Its alerts come here, mentioning ${people}.`,
  firstCheck: (minutes) =>
    `The first check comes within ${minutesEn(minutes)}: it notes which methods are on and their surcharges, so only later changes are news.`,
  announceFallback: "The payment methods watch is on.",
  saved: (register, channel) =>
    `:white_check_mark: The payment methods watch${register} is on: alerts go to ${channel}.`,
  savedFallback: "The payment methods watch is on.",
  notInChannel: (channel) =>
    `:warning: Kassa is not in ${channel}, so it could not post there, and its alerts will not arrive: invite it (\`/invite @Kassa\`).`,
  offAnnounce: (by, register) =>
    `:zzz: ${by} turned off the payment methods watch${register}: no more alerts of failing or silent methods here, nor notes of changes made outside Kassa. \`/paymethods watch\` turns it on again.`,
  offAnnounceFallback: "The payment methods watch is off.",
  off: (register) => `The payment methods watch${register} is off. \`/paymethods watch\` turns it on again.`,
  offFallback: "The payment methods watch is off.",
  wasOff: (register) =>
    `The payment methods watch${register} was not on. \`/paymethods watch\` opens its form.`,
  wasOffFallback: "The payment methods watch was not on.",
};

const ru: MethodWatchFormText = {
  title: "Наблюдение за методами",
  save: "Сохранить",
  cancel: "Отмена",
  ofRegister: (register) => ` кассы ${register}`,
  intro: (register) =>
    `Наблюдение за методами оплаты кассы ${register}: оповещение, когда метод сбоит или по нему перестают платить, и заметка, когда метод меняют в обход Кассы.`,
  channel: "Канал оповещений",
  channelHint: "Kassa должна быть в нём: пригласите её командой /invite @Kassa.",
  mention: "Упоминать в оповещениях",
  mentionHint: "Кто должен узнать об оповещении сразу (до 10 человек).",
  failureHeader:
    "*Когда метод сбоит*: оповещение, когда достаточно его счетов не оплачено из-за сбоя или недоступности. Неверные суммы считаются отдельно, тестовые платежи не учитываются.",
  sharePercent: "Доля сбоев, %",
  sharePercentHint: "Оповещение, когда сбоем закончилась хотя бы такая доля счетов метода.",
  minInvoices: "Не меньше счетов",
  minInvoicesHint: "Если счетов меньше, это не новость: один сбой из двух ничего не значит.",
  windowMinutes: "За минут",
  windowMinutesHint: "Считаются счета, созданные за последние столько минут.",
  silenceHeader:
    "*Когда по методу перестают платить*: оповещение, когда по методу, который обычно оплачивают, давно нет оплат.",
  silence: "Правило тишины",
  silenceModes: {
    usual: "По истории кассы: обычный промежуток, умноженный на множитель",
    fixed: "Через заданное число часов",
    off: "Выключено: без оповещений о тишине",
  },
  factor: "Во сколько раз дольше обычного",
  factorHint:
    "Обычный промежуток между оплатами в этот час дня за последние 28 дней, умноженный на это число.",
  floorHours: "Но не меньше, часов",
  floorHoursHint: "Тихие часы не новость: оповещение ждёт хотя бы столько.",
  hours: "Часов без оплаты",
  hoursHint: "Только для заданного числа часов: оповещение после стольких часов без оплаченного счёта.",
  footer:
    "Изменения в обход Кассы (метод включили или выключили, изменили наценку) тоже публикуются в канале оповещений. `/paymethods watch` меняет эти настройки, `/paymethods watch off` выключает наблюдение.",
  problems: {
    required: "Заполните это поле.",
    channel: "Выберите канал для оповещений.",
    silence: "Выберите правило тишины.",
    range: (min, max) => `Целое число от ${min} до ${max}.`,
    tooMany: (max) => `Не больше ${max} человек.`,
  },
  notAllowed:
    "Настраивать наблюдение за методами оплаты могут только администраторы и владельцы рабочего пространства. Обратитесь к одному из них.",
  outdated: "Эта форма устарела. Закройте её и снова выполните /paymethods watch.",
  notConnected: "Эта касса больше не подключена. Подключите её и попробуйте снова.",
  failureRule: (share, invoices, minutes) =>
    `*Сбои*: за ${minutesRuAcc(minutes)} по одному методу создано не меньше ${invoicesRuGen(invoices)}, и не меньше ${share} % из них не оплачены из-за сбоя или недоступности (неверные суммы считаются отдельно, тестовые платежи не учитываются).`,
  silenceRule: {
    usual: (factor, floor) =>
      `*Тишина*: нет оплаченных счетов по методу в ${timesRu(factor)} дольше обычного промежутка в этот час дня за последние 28 дней, но не меньше ${floor} ч. За методом, по которому здесь ни разу не платили, тишина не отслеживается.`,
    fixed: (hours) => `*Тишина*: нет оплаченных счетов по обычно оплачиваемому методу ${hours} ч.`,
    off: "*Тишина*: не отслеживается.",
  },
  outsideRule:
    "*Изменения в обход Кассы* (метод включили или выключили, изменили наценку) публикуются здесь.",
  announceOn: (by, register) => `:eyes: ${by} включил(а) наблюдение за методами оплаты${register}.`,
  announceChanged: (by, register) => `:eyes: ${by} изменил(а) наблюдение за методами оплаты${register}.`,
  alertsHere: "Оповещения приходят сюда.",
  alertsHereMention: (people) => `Оповещения приходят сюда, с упоминанием ${people}.`,
  firstCheck: (minutes) =>
    `Первая проверка — в течение ${minutesRuGen(minutes)}: она запоминает, какие методы включены и их наценки, так что новостью будут только дальнейшие изменения.`,
  announceFallback: "Наблюдение за методами оплаты включено.",
  saved: (register, channel) =>
    `:white_check_mark: Наблюдение за методами оплаты${register} включено: оповещения приходят в ${channel}.`,
  savedFallback: "Наблюдение за методами оплаты включено.",
  notInChannel: (channel) =>
    `:warning: Kassa нет в ${channel}, поэтому она не смогла туда написать, и оповещения не придут: пригласите её (\`/invite @Kassa\`).`,
  offAnnounce: (by, register) =>
    `:zzz: ${by} выключил(а) наблюдение за методами оплаты${register}: оповещений о сбоях и тишине методов здесь больше не будет, как и заметок об изменениях в обход Кассы. \`/paymethods watch\` включает его снова.`,
  offAnnounceFallback: "Наблюдение за методами оплаты выключено.",
  off: (register) =>
    `Наблюдение за методами оплаты${register} выключено. \`/paymethods watch\` включает его снова.`,
  offFallback: "Наблюдение за методами оплаты выключено.",
  wasOff: (register) =>
    `Наблюдение за методами оплаты${register} не было включено. \`/paymethods watch\` открывает его форму.`,
  wasOffFallback: "Наблюдение за методами оплаты не было включено.",
};

export const METHOD_WATCH_FORM_TEXT: Record<Lang, MethodWatchFormText> = { en, ru };
