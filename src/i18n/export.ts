import { ERROR_TEXT } from "./errors.js";
import type { Lang } from "./lang.js";
import type { PluralForms } from "./plural.js";

/**
 * `/invoice export`: what the asker is told in the channel, the progress message and the file's
 * line in their messages with Kassa. Titles, counts, amounts and dates arrive formatted.
 */
export type ExportText = {
  underWay: (title: string, format: string) => string;
  underWayFallback: string;
  notAllowed: string;
  busy: (user: string, since: string) => string;
  busyFallback: string;
  reading: (title: string, format: string) => string;
  progress: (pages: string, invoices: string) => string;
  pages: PluralForms;
  invoices: PluralForms;
  writing: string;
  cancel: string;
  cancelled: (user: string) => string;
  cancelledFallback: string;
  /** To an admin who cancelled someone else's export (the asker is told in the progress message). */
  cancelledForAsker: (asker: string) => string;
  done: (title: string, format: string) => string;
  fileLine: (title: string, invoices: string, paid: string, zone: string) => string;
  /** What the file lacks, after its line: entries that could not be read, kept days left out. */
  notInFile: (entries: string) => string;
  entries: PluralForms;
  daysNotInFile: (days: string) => string;
  /** Refunds paid out in the period (issue 52), after the file's line: apart from the paid total. */
  refundsLine: (line: string) => string;
  /** The refunds could not be read: the refunded column is empty. */
  refundsUnread: string;
  fileTitle: (title: string) => string;
  /** The export's title where the workspace has several registers: which one it is of. */
  ofRegister: (title: string, register: string) => string;
  sheetName: string;
  needsScope: string;
  /** service: the payment service failed while reading; kassa: Kassa did; slack: Slack did not take the file. */
  failed: (where: "service" | "kassa" | "slack") => string;
  stopped: string;
  /** The Kassa server making the export stopped working (another one says so). */
  lapsed: (title: string, format: string) => string;
  lapsedFallback: string;
  tooLong: (invoices: string) => string;
  notYours: string;
};

/** A report's title inside a sentence: "Exporting invoices in October 2026", not "Exporting Invoices". */
const inSentence = (title: string) => title.charAt(0).toLocaleLowerCase() + title.slice(1);

const en: ExportText = {
  underWay: (title, format) =>
    `:hourglass_flowing_sand: Exporting ${inSentence(title)} as ${format}: the file will come to you in your messages with Kassa, with its progress until then.`,
  underWayFallback: "Export under way: the file will come to you in your messages with Kassa.",
  notAllowed: `:lock: An export shows every invoice's money and description, so only those who may see the balance may make one: ${ERROR_TEXT.en.whoMayManage}. Ask one of them.`,
  busy: (user, since) =>
    `:hourglass_flowing_sand: An export of this workspace's invoices is already under way, asked for by ${user} ${since}. Kassa makes one at a time: ask again once it has finished.`,
  busyFallback: "An export is already under way in this workspace.",
  reading: (title, format) => `:hourglass_flowing_sand: Exporting ${inSentence(title)} as ${format}.`,
  progress: (pages, invoices) => `Read so far: ${pages}, ${invoices} of the period.`,
  pages: { one: "history page", other: "history pages" },
  invoices: { one: "invoice", other: "invoices" },
  writing: "Writing the file and sending it.",
  cancel: "Cancel",
  cancelled: (user) => `:no_entry_sign: The export was cancelled by ${user}; nothing was sent.`,
  cancelledFallback: "The export was cancelled.",
  cancelledForAsker: (asker) =>
    `:no_entry_sign: You cancelled the export ${asker} asked for; nothing was sent, and they were told in their messages with Kassa.`,
  done: (title, format) => `:white_check_mark: ${title} as ${format}: the file is below.`,
  fileLine: (title, invoices, paid, zone) =>
    `${title}: ${invoices}, ${paid} paid (test payments apart). One row per invoice, newest first; times in ${zone}.`,
  notInFile: (entries) => `:warning: ${entries} of the history could not be read and are not in the file.`,
  entries: { one: "entry", other: "entries" },
  daysNotInFile: (days) =>
    `:warning: The invoices Kassa keeps for ${days} (days in UTC) could not be read, even afresh from the payment service, and are not in the file. Export again later; if it keeps happening, tell the Kassa operator.`,
  refundsLine: (line) =>
    `Refunds paid out in the period: ${line}. Each invoice's refunds are in the \`refunded_amount\` column.`,
  refundsUnread:
    ":warning: Kassa could not read the refunds paid out just now, so the `refunded_amount` column is empty. Export again in a minute to have them.",
  fileTitle: (title) => `Kassa export: ${title}`,
  ofRegister: (title, register) => `${title}, register ${register}`,
  sheetName: "Invoices",
  needsScope:
    ":warning: Kassa may not send files or direct messages in this workspace yet. A workspace admin can reinstall Kassa from its Slack app page (it asks for the two permissions) to allow exports and charts.",
  failed: (where) =>
    `:warning: The export could not be finished: ${where === "service" ? "the payment service stopped answering while its history was read" : where === "kassa" ? "something went wrong on Kassa's side while the invoices were read" : "Slack did not take the file"}. Nothing was sent; try again in a few minutes${where === "kassa" ? "; if it keeps happening, tell the Kassa operator" : ""}.`,
  stopped: ":warning: The export stopped because Kassa was restarting. Nothing was sent; ask again.",
  lapsed: (title, format) =>
    `:warning: Exporting ${inSentence(title)} as ${format} stopped: the Kassa server making it stopped working. Nothing was sent; ask again with \`/invoice export\`.`,
  lapsedFallback: "The export stopped: nothing was sent; ask again.",
  tooLong: (invoices) =>
    `:warning: The period holds more than ${invoices}, more than one export takes. Export a shorter period (a month, or 7 days).`,
  notYours: "Only the person who asked for this export, or an admin, can cancel it.",
};

const ru: ExportText = {
  underWay: (title, format) =>
    `:hourglass_flowing_sand: Выгружаю ${inSentence(title)} в ${format}: файл придёт вам в сообщения с Kassa, а до тех пор там будет виден ход выгрузки.`,
  underWayFallback: "Выгрузка началась: файл придёт вам в сообщения с Kassa.",
  notAllowed: `:lock: Выгрузка показывает суммы и описания всех счетов, поэтому её могут делать только те, кому виден баланс: ${ERROR_TEXT.ru.whoMayManage}. Попросите кого-нибудь из них.`,
  busy: (user, since) =>
    `:hourglass_flowing_sand: Выгрузка счетов этого рабочего пространства уже идёт, её запросил ${user} ${since}. Kassa делает по одной: повторите, когда она закончится.`,
  busyFallback: "В этом рабочем пространстве уже идёт выгрузка.",
  reading: (title, format) => `:hourglass_flowing_sand: Выгружаю ${inSentence(title)} в ${format}.`,
  progress: (pages, invoices) => `Прочитано: ${pages}, ${invoices} за период.`,
  pages: {
    one: "страница истории",
    few: "страницы истории",
    many: "страниц истории",
    other: "страницы истории",
  },
  invoices: { one: "счёт", few: "счёта", many: "счетов", other: "счёта" },
  writing: "Записываю файл и отправляю.",
  cancel: "Отменить",
  cancelled: (user) => `:no_entry_sign: Выгрузку отменил ${user}; ничего не отправлено.`,
  cancelledFallback: "Выгрузка отменена.",
  cancelledForAsker: (asker) =>
    `:no_entry_sign: Вы отменили выгрузку, которую запрашивал ${asker}; ничего не отправлено, Kassa сообщила об этом в личных сообщениях.`,
  done: (title, format) => `:white_check_mark: ${title} в ${format}: файл ниже.`,
  fileLine: (title, invoices, paid, zone) =>
    `${title}: ${invoices}, оплачено ${paid} (без тестовых платежей). По строке на счёт, сначала новые; время по ${zone}.`,
  notInFile: (entries) => `:warning: ${entries} истории не удалось прочитать, их нет в файле.`,
  entries: { one: "запись", few: "записи", many: "записей", other: "записи" },
  daysNotInFile: (days) =>
    `:warning: Счета, которые Kassa хранит за ${days} (дни по UTC), не удалось прочитать даже заново из платёжного сервиса, их нет в файле. Выгрузите ещё раз позже; если это повторяется, сообщите оператору Kassa.`,
  refundsLine: (line) =>
    `Выплаченные за период возвраты: ${line}. Возвраты по каждому счёту — в столбце \`refunded_amount\`.`,
  refundsUnread:
    ":warning: Kassa не смогла сейчас прочитать выплаченные возвраты, поэтому столбец `refunded_amount` пуст. Выгрузите ещё раз через минуту, чтобы они были.",
  fileTitle: (title) => `Выгрузка Kassa: ${title}`,
  ofRegister: (title, register) => `${title}, касса ${register}`,
  sheetName: "Счета",
  needsScope:
    ":warning: Kassa пока не может отправлять файлы и личные сообщения в этом рабочем пространстве. Администратор может переустановить Kassa со страницы приложения в Slack (она попросит эти два разрешения), чтобы включить выгрузки и графики.",
  failed: (where) =>
    `:warning: Выгрузку не удалось закончить: ${where === "service" ? "платёжный сервис перестал отвечать, пока читалась история" : where === "kassa" ? "на стороне Kassa что-то пошло не так, пока читались счета" : "Slack не принял файл"}. Ничего не отправлено; попробуйте через несколько минут${where === "kassa" ? "; если это повторяется, сообщите оператору Kassa" : ""}.`,
  stopped:
    ":warning: Выгрузка остановилась, потому что Kassa перезапускалась. Ничего не отправлено; запросите снова.",
  lapsed: (title, format) =>
    `:warning: Выгрузка (${inSentence(title)} в ${format}) остановилась: сервер Kassa, который её делал, перестал работать. Ничего не отправлено; запросите снова командой \`/invoice export\`.`,
  lapsedFallback: "Выгрузка остановилась: ничего не отправлено; запросите снова.",
  tooLong: (invoices) =>
    `:warning: За этот период больше чем ${invoices}, больше, чем берёт одна выгрузка. Выгрузите период покороче (месяц или 7 дней).`,
  notYours: "Отменить выгрузку может только тот, кто её запросил, или администратор.",
};

export const EXPORT_TEXT: Record<Lang, ExportText> = { en, ru };
