import type { Lang } from "./lang.js";

/** What a switch asks for: off, on, or a surcharge (its percent given formatted beside it). */
export type AskKind = "off" | "on" | "surcharge";

/**
 * Switching a payment method and setting its surcharge (`/paymethods off|on|surcharge`, the alert's
 * button): the confirmation, the answers, and the method list's notes. `method` arrives as the
 * method's name and code, escaped; people and times as Slack tokens; percents formatted.
 */
export type MethodSwitchText = {
  title: Record<AskKind, string>;
  submit: Record<AskKind, string>;
  cancel: string;
  close: string;
  reading: (method: string) => string;
  sending: (method: string, kind: AskKind, percent: string) => string;
  now: (on: boolean, surcharge: string, forPayers: boolean) => string;
  register: (name: string) => string;
  payersSee: (name: string, kind: AskKind, percent: string, serviceOff: boolean) => string;
  sendsOnce: string;
  done: (method: string, on: boolean, surcharge: string) => string;
  already: (method: string, kind: AskKind, percent: string) => string;
  alreadyByKassa: (user: string, at: string) => string;
  alreadyOutside: (since: string) => string;
  lastOn: (method: string) => string;
  unknown: (code: string) => string;
  repeatLast: (method: string, on: boolean, surcharge: string, user: string, at: string) => string;
  repeat: string;
  underWay: (method: string, user: string) => string;
  refused: (words: string) => string;
  unsure: (method: string) => string;
  unsureAccepted: (method: string) => string;
  unsureShows: (on: boolean, surcharge: string) => string;
  failed: string;
  noteLast: (kind: AskKind, percent: string, user: string, at: string) => string;
  notePending: (kind: AskKind, percent: string, user: string, unsure: boolean) => string;
};

const en: MethodSwitchText = {
  title: { off: "Switch a method off", on: "Switch a method on", surcharge: "Set a surcharge" },
  submit: { off: "Switch off", on: "Switch on", surcharge: "Set surcharge" },
  cancel: "Cancel",
  close: "Close",
  reading: (method) => `:hourglass_flowing_sand: Reading ${method} at the payment service…`,
  sending: (method, kind, percent) =>
    `:hourglass_flowing_sand: ${kind === "surcharge" ? `Setting the surcharge of ${method} to ${percent}` : `Switching ${method} ${kind}`} at the payment service, then reading it again…`,
  now: (on, surcharge, forPayers) =>
    `Now: *${on ? "on" : "off"}*${on && !forPayers ? " (the service itself has it off for payers)" : ""} · surcharge ${surcharge}`,
  register: (name) => `Cash register: *${name}*`,
  payersSee: (name, kind, percent, serviceOff) =>
    kind === "off"
      ? `Payers can no longer choose ${name}; invoices already open keep their method.`
      : kind === "on"
        ? serviceOff
          ? `Switched on here, ${name} still stays closed to payers until the payment service itself opens it.`
          : `Payers can choose ${name} again.`
        : `Payers pay ${percent} more with ${name}.`,
  sendsOnce:
    "Kassa sends one change to the payment service, then reads the method again and shows what the service reports.",
  done: (method, on, surcharge) =>
    `:white_check_mark: The payment service now shows ${method} *${on ? "on" : "off"}*, surcharge ${surcharge}.`,
  already: (method, kind, percent) =>
    kind === "surcharge"
      ? `:information_source: The surcharge of ${method} is already ${percent}.`
      : `:information_source: ${method} is already ${kind}.`,
  alreadyByKassa: (user, at) => `Changed in Kassa by ${user} at ${at}.`,
  alreadyOutside: (since) =>
    `Changed outside Kassa (the methods watch last saw it otherwise at ${since}). Nothing was sent.`,
  lastOn: (method) =>
    `:no_entry: ${method} is the last incoming method on: switched off, payers could not pay at all. Switch another method on first. Nothing was sent.`,
  unknown: (code) =>
    `:mag: The payment service lists no method ${code} for this cash register. \`/paymethods\` lists them.`,
  repeatLast: (method, on, surcharge, user, at) =>
    `:information_source: This confirmation was handled: the service showed ${method} *${on ? "on" : "off"}*, surcharge ${surcharge} (by ${user} at ${at}).`,
  repeat:
    ":information_source: This confirmation was handled already. `/paymethods` shows the methods as they are now.",
  underWay: (method, user) =>
    `:hourglass_flowing_sand: A switch of ${method} is under way (by ${user}). \`/paymethods\` shows the result once it is done.`,
  refused: (words) => `:x: The payment service refused: “${words}”. Nothing was changed.`,
  unsure: (method) =>
    `:grey_question: Not sure: the payment service did not confirm the change of ${method}. Kassa checks again at its next read of the method; \`/paymethods\` shows the result.`,
  unsureAccepted: (method) =>
    `:grey_question: The payment service accepted the change of ${method} but does not show it yet. Kassa checks again at its next read of the method; \`/paymethods\` shows the result.`,
  unsureShows: (on, surcharge) => `It shows it *${on ? "on" : "off"}*, surcharge ${surcharge}, now.`,
  failed: "Nothing was sent.",
  noteLast: (kind, percent, user, at) =>
    kind === "surcharge"
      ? `surcharge set to ${percent} by ${user}, ${at}`
      : `switched ${kind} by ${user}, ${at}`,
  notePending: (kind, percent, user, unsure) =>
    `${kind === "surcharge" ? `surcharge ${percent}` : `switching ${kind}`} asked by ${user}: ${unsure ? "not confirmed by the service yet" : "under way"}`,
};

const ru: MethodSwitchText = {
  title: { off: "Отключить метод", on: "Включить метод", surcharge: "Наценка метода" },
  submit: { off: "Отключить", on: "Включить", surcharge: "Задать наценку" },
  cancel: "Отмена",
  close: "Закрыть",
  reading: (method) => `:hourglass_flowing_sand: Читаю ${method} в платёжном сервисе…`,
  sending: (method, kind, percent) =>
    `:hourglass_flowing_sand: ${kind === "surcharge" ? `Задаю наценку ${method}: ${percent}` : kind === "off" ? `Отключаю ${method}` : `Включаю ${method}`} в платёжном сервисе и читаю метод снова…`,
  now: (on, surcharge, forPayers) =>
    `Сейчас: *${on ? "включён" : "отключён"}*${on && !forPayers ? " (для плательщиков его отключил сам сервис)" : ""} · наценка ${surcharge}`,
  register: (name) => `Касса: *${name}*`,
  payersSee: (name, kind, percent, serviceOff) =>
    kind === "off"
      ? `Плательщики больше не смогут выбрать ${name}; уже открытые счета сохранят свой метод.`
      : kind === "on"
        ? serviceOff
          ? `Включённый здесь, ${name} останется закрытым для плательщиков, пока его не откроет сам платёжный сервис.`
          : `Плательщики снова смогут выбрать ${name}.`
        : `Плательщики платят на ${percent} больше с ${name}.`,
  sendsOnce:
    "Kassa отправит в платёжный сервис одно изменение, затем прочитает метод снова и покажет то, что сообщит сервис.",
  done: (method, on, surcharge) =>
    `:white_check_mark: Платёжный сервис теперь показывает ${method} *${on ? "включённым" : "отключённым"}*, наценка ${surcharge}.`,
  already: (method, kind, percent) =>
    kind === "surcharge"
      ? `:information_source: Наценка ${method} уже ${percent}.`
      : `:information_source: ${method} уже ${kind === "off" ? "отключён" : "включён"}.`,
  alreadyByKassa: (user, at) => `Изменено в Kassa: ${user}, ${at}.`,
  alreadyOutside: (since) =>
    `Изменено не через Kassa (наблюдение за методами видело его другим ${since}). Ничего не отправлено.`,
  lastOn: (method) =>
    `:no_entry: ${method} — последний включённый метод приёма: без него плательщики не смогут заплатить совсем. Сначала включите другой метод. Ничего не отправлено.`,
  unknown: (code) =>
    `:mag: Платёжный сервис не знает метода ${code} у этой кассы. \`/paymethods\` покажет список.`,
  repeatLast: (method, on, surcharge, user, at) =>
    `:information_source: Это подтверждение уже выполнено: сервис показал ${method} *${on ? "включённым" : "отключённым"}*, наценка ${surcharge} (${user}, ${at}).`,
  repeat:
    ":information_source: Это подтверждение уже обработано. `/paymethods` покажет методы такими, какие они сейчас.",
  underWay: (method, user) =>
    `:hourglass_flowing_sand: ${method} уже переключается (${user}). \`/paymethods\` покажет результат, когда всё закончится.`,
  refused: (words) => `:x: Платёжный сервис отказал: «${words}». Ничего не изменено.`,
  unsure: (method) =>
    `:grey_question: Неизвестно, изменился ли ${method}: платёжный сервис не подтвердил изменение. Kassa проверит при следующем чтении метода; \`/paymethods\` покажет результат.`,
  unsureAccepted: (method) =>
    `:grey_question: Платёжный сервис принял изменение ${method}, но пока его не показывает. Kassa проверит при следующем чтении метода; \`/paymethods\` покажет результат.`,
  unsureShows: (on, surcharge) => `Сейчас он *${on ? "включён" : "отключён"}*, наценка ${surcharge}.`,
  failed: "Ничего не отправлено.",
  noteLast: (kind, percent, user, at) =>
    kind === "surcharge"
      ? `наценку ${percent} задал(а) ${user}, ${at}`
      : `${kind === "off" ? "отключил(а)" : "включил(а)"} ${user}, ${at}`,
  notePending: (kind, percent, user, unsure) =>
    `${kind === "surcharge" ? `наценка ${percent}` : kind === "off" ? "отключение" : "включение"} (${user}): ${unsure ? "сервис ещё не подтвердил" : "выполняется"}`,
};

export const METHOD_SWITCH_TEXT: Record<Lang, MethodSwitchText> = { en, ru };
