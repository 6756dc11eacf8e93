import type { Lang } from "./lang.js";
import { counted } from "./plural.js";

// Repeating invoices (issue 51, item 4): the create form's Repeat fields, what the owner is told at
// each run, and `/invoice recurring` with its buttons. `what` arrives formatted (the amount, bold).

export type SchedulesText = {
  /** "every month on the 5th at 10:00"; `day` 1–31 (month) or 1–7 (week, Monday first). */
  rule: (every: "week" | "month", day: number, at: string) => string;
  until: (day: string) => string;
  runsLeft: (count: number) => string;
  made: (what: string, rule: string, zone: string, channel: string, first: string) => string;
  madeFallback: (what: string) => string;
  /** The owner's message at a run: the link; `next` the next run's date, or undefined (the last). */
  ran: (what: string, id: string, url: string, channel: string, next: string | undefined) => string;
  ranFallback: (id: string, url: string) => string;
  failed: (what: string, why: string, next: string | undefined) => string;
  failedFallback: (what: string) => string;
  pausedDisconnected: (what: string, rule: string) => string;
  pausedDisconnectedFallback: (what: string) => string;
  title: string;
  none: string;
  next: (when: string) => string;
  owner: (person: string, channel: string) => string;
  paused: string;
  pausedByKassa: string;
  ended: string;
  more: (count: number) => string;
  pause: string;
  resume: string;
  remove: string;
  confirmTitle: string;
  confirmText: string;
  confirmYes: string;
  confirmNo: string;
  notYours: (owner: string) => string;
  gone: string;
  tooMany: (max: number) => string;
  // The form.
  repeat: string;
  repeatHint: string;
  everyWeek: string;
  everyMonth: string;
  noRepeat: string;
  day: string;
  dayHint: string;
  at: string;
  atHint: (zone: string) => string;
  untilLabel: string;
  untilHint: string;
  times: string;
  timesHint: string;
  dayWeekError: string;
  dayMonthError: string;
  timesError: (max: number) => string;
  untilPast: string;
  untilAndTimes: string;
  chooseRepeat: string;
};

const WEEKDAYS_EN = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];
const WEEKDAYS_RU = ["понедельник", "вторник", "среду", "четверг", "пятницу", "субботу", "воскресенье"];

function ordinal(day: number): string {
  const tens = day % 100;
  if (tens >= 11 && tens <= 13) return `${day}th`;
  return `${day}${["th", "st", "nd", "rd"][day % 10] ?? "th"}`;
}

const en: SchedulesText = {
  rule: (every, day, at) =>
    every === "week"
      ? `every week on ${WEEKDAYS_EN[day - 1] ?? day} at ${at}`
      : `every month on the ${ordinal(day)}${day > 28 ? " (a shorter month: its last day)" : ""} at ${at}`,
  until: (day) => `until ${day}`,
  runsLeft: (count) => `${counted("en", count, { one: "run", other: "runs" })} left`,
  made: (what, rule, zone, channel, first) =>
    `:repeat: Repeating invoice set: ${what} ${rule} (${zone}), its card posted in ${channel} and the link sent to you here each time. First: ${first}. \`/invoice recurring\` lists the schedules, to pause or delete them.`,
  madeFallback: (what) => `Repeating invoice set: ${what}.`,
  ran: (what, id, url, channel, next) =>
    `:repeat: Your repeating invoice ${what} was made: \`${id}\`, its card in ${channel}. Payment link to send: ${url}\n${next ? `Next one: ${next}.` : "That was its last run."}`,
  ranFallback: (id, url) => `Repeating invoice ${id} was made: ${url}`,
  failed: (what, why, next) =>
    `:warning: Your repeating invoice ${what} could not be made this time: ${why}. ${next ? `The schedule goes on; next one: ${next}. To make this one now, use \`/invoice new\`.` : "That was its last run; make one by hand with `/invoice new` if it is still needed."}`,
  failedFallback: (what) => `A repeating invoice for ${what} could not be made.`,
  pausedDisconnected: (what, rule) =>
    `:double_vertical_bar: Your repeating invoice ${what} (${rule}) is paused: its cash register is no longer connected, so nothing was made. Once an admin connects it again (\`/invoice connect\`), press *Resume* in \`/invoice recurring\`.`,
  pausedDisconnectedFallback: (what) =>
    `Repeating invoice ${what} is paused: its cash register is not connected.`,
  title: "Repeating invoices",
  none: "No repeating invoices in this cash register. Make one with `/invoice new 1500 RUB every month on 5 at 10:00`, or the Repeat fields of the `/invoice new` form.",
  next: (when) => `next ${when}`,
  owner: (person, channel) => `by ${person}, posted in ${channel}`,
  paused: "*Paused*",
  pausedByKassa: "*Paused*: its cash register was disconnected",
  ended: "*Ended*",
  more: (count) => `…and ${count} more.`,
  pause: "Pause",
  resume: "Resume",
  remove: "Delete",
  confirmTitle: "Delete this schedule?",
  confirmText: "No more invoices are made from it. Invoices it made already stay as they are.",
  confirmYes: "Delete",
  confirmNo: "Keep it",
  notYours: (owner) => `Only its owner, ${owner}, or an admin may change this schedule.`,
  gone: "This schedule is gone (deleted). `/invoice recurring` lists the ones left.",
  tooMany: (max) =>
    `This cash register has ${max} repeating invoices, the most it may have. Delete one in \`/invoice recurring\` first.`,
  repeat: "Repeat",
  repeatHint: "Kassa makes this invoice again on each date, posts its card here and sends you the link.",
  everyWeek: "Every week",
  everyMonth: "Every month",
  noRepeat: "Does not repeat",
  day: "Repeat on",
  dayHint:
    "Weekly: a weekday (Mon … Sun); monthly: a day 1–31 (a shorter month: its last day). Empty: today's.",
  at: "At",
  atHint: (zone) => `The time of day, in ${zone}. Empty: now.`,
  untilLabel: "Until",
  untilHint: "The last day a run may fall on. Empty: until you delete it.",
  times: "Times",
  timesHint: "How many invoices in all (instead of Until). Empty: no count.",
  dayWeekError: "Type a weekday: Mon, Tue … Sun (or 1–7).",
  dayMonthError: "Type a day of the month, 1 to 31.",
  timesError: (max) => `Type a number of invoices, 1 to ${max}.`,
  untilPast: "Pick today or a later day.",
  untilAndTimes: "Give Until or Times, not both.",
  chooseRepeat: "Choose Every week or Every month first (or leave these fields empty).",
};

const ru: SchedulesText = {
  rule: (every, day, at) =>
    every === "week"
      ? `каждую неделю, в ${WEEKDAYS_RU[day - 1] ?? day}, в ${at}`
      : `каждый месяц ${day}-го числа${day > 28 ? " (в коротком месяце — в последний день)" : ""} в ${at}`,
  until: (day) => `до ${day}`,
  runsLeft: (count) =>
    `осталось ${counted("ru", count, { one: "запуск", few: "запуска", many: "запусков", other: "запуска" })}`,
  made: (what, rule, zone, channel, first) =>
    `:repeat: Повторяющийся счёт настроен: ${what} ${rule} (${zone}); карточка — в ${channel}, ссылка — вам сюда каждый раз. Первый: ${first}. \`/invoice recurring\` показывает расписания, там их можно приостановить или удалить.`,
  madeFallback: (what) => `Повторяющийся счёт настроен: ${what}.`,
  ran: (what, id, url, channel, next) =>
    `:repeat: Ваш повторяющийся счёт ${what} создан: \`${id}\`, карточка — в ${channel}. Ссылка для оплаты: ${url}\n${next ? `Следующий: ${next}.` : "Это был последний запуск."}`,
  ranFallback: (id, url) => `Повторяющийся счёт ${id} создан: ${url}`,
  failed: (what, why, next) =>
    `:warning: Повторяющийся счёт ${what} на этот раз создать не удалось: ${why}. ${next ? `Расписание продолжается; следующий: ${next}. Чтобы создать этот сейчас, используйте \`/invoice new\`.` : "Это был последний запуск; если счёт нужен, создайте его вручную через `/invoice new`."}`,
  failedFallback: (what) => `Повторяющийся счёт на ${what} создать не удалось.`,
  pausedDisconnected: (what, rule) =>
    `:double_vertical_bar: Повторяющийся счёт ${what} (${rule}) приостановлен: его касса больше не подключена, поэтому ничего не создано. Когда администратор подключит её снова (\`/invoice connect\`), нажмите *Возобновить* в \`/invoice recurring\`.`,
  pausedDisconnectedFallback: (what) => `Повторяющийся счёт ${what} приостановлен: касса не подключена.`,
  title: "Повторяющиеся счета",
  none: "В этой кассе нет повторяющихся счетов. Создайте его командой `/invoice new 1500 RUB каждый месяц 5 числа в 10:00` или полями «Повторять» в форме `/invoice new`.",
  next: (when) => `следующий ${when}`,
  owner: (person, channel) => `владелец ${person}, карточки в ${channel}`,
  paused: "*Приостановлен*",
  pausedByKassa: "*Приостановлен*: касса была отключена",
  ended: "*Завершён*",
  more: (count) => `…и ещё ${count}.`,
  pause: "Приостановить",
  resume: "Возобновить",
  remove: "Удалить",
  confirmTitle: "Удалить расписание?",
  confirmText: "Новые счета по нему создаваться не будут. Уже созданные счета останутся как есть.",
  confirmYes: "Удалить",
  confirmNo: "Оставить",
  notYours: (owner) => `Изменить это расписание может только его владелец, ${owner}, или администратор.`,
  gone: "Этого расписания больше нет (удалено). `/invoice recurring` покажет оставшиеся.",
  tooMany: (max) =>
    `В этой кассе уже ${max} повторяющихся счетов — это предел. Сначала удалите один в \`/invoice recurring\`.`,
  repeat: "Повторять",
  repeatHint:
    "Kassa будет создавать этот счёт в каждую дату, публиковать карточку здесь и присылать вам ссылку.",
  everyWeek: "Каждую неделю",
  everyMonth: "Каждый месяц",
  noRepeat: "Не повторять",
  day: "День",
  dayHint:
    "Еженедельно: день недели (пн … вс); ежемесячно: число 1–31 (в коротком месяце — последний день). Пусто: сегодняшний.",
  at: "Время",
  atHint: (zone) => `Время дня, часовой пояс ${zone}. Пусто: сейчас.`,
  untilLabel: "До",
  untilHint: "Последний день, на который может прийтись запуск. Пусто: пока вы не удалите расписание.",
  times: "Сколько раз",
  timesHint: "Сколько счетов всего (вместо «До»). Пусто: без ограничения.",
  dayWeekError: "Укажите день недели: пн, вт … вс (или 1–7).",
  dayMonthError: "Укажите число месяца, от 1 до 31.",
  timesError: (max) => `Укажите количество счетов, от 1 до ${max}.`,
  untilPast: "Выберите сегодняшний или более поздний день.",
  untilAndTimes: "Укажите «До» или «Сколько раз», но не оба.",
  chooseRepeat: "Сначала выберите «Каждую неделю» или «Каждый месяц» (или оставьте эти поля пустыми).",
};

export const SCHEDULES_TEXT: Record<Lang, SchedulesText> = { en, ru };
