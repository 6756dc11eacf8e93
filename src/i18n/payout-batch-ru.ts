import type { PayoutBatchText } from "./payout-batch-words.js";

/** `/payout batch` in Russian (the English and the shape: payout-batch.ts). */
export const ru: PayoutBatchText = {
  formTitle: "Пакет выплат",
  formIntro: (register, channel) =>
    `Выплатите нескольким получателям сразу из кассы *${register}*. Kassa проверит каждую строку, запросит у сервиса расчёт по каждой и опубликует одну карточку в ${channel} для одобрения.`,
  rows: "Строки",
  rowsHint:
    "Одна выплата в строке, скопируйте из таблицы: название доверенного получателя (или метод и кошелёк), сумма, кто платит комиссию (баланс или сумма) и назначение. Ячейки через табуляцию, ; или , — строка заголовков допустима. Не больше 50 строк.",
  reason: "Основание",
  reasonHint: "Для чего пакет (его увидят одобряющие).",
  submit: "Рассчитать",
  close: "Отмена",
  paste: {
    columns: (line) =>
      `Строка ${line}: Kassa не может её прочитать (название, сумма, комиссия, назначение; или метод, кошелёк, сумма, комиссия, назначение).`,
    amount: (line, detail) => `Строка ${line}: сумма ${detail}.`,
    fee: (line, detail) =>
      `Строка ${line}: «${detail}» — не указание, кто платит комиссию (баланс или сумма).`,
    too_long: (line, detail) => `Строка ${line}: слишком длинное поле ${detail}.`,
    too_many: (_line, detail) => `В пакете не больше 50 строк, а здесь ${detail}.`,
    empty: () => "Вставьте хотя бы одну строку.",
  },
  amountWhy: {
    empty: "не указана",
    not_a_number: "не число",
    ambiguous: "читается двояко (пишите 1500.50 или 10000)",
    zero: "ноль",
  },
  started: (rows, channel) =>
    `:hourglass_flowing_sand: Kassa запрашивает у сервиса расчёт по ${rows} строкам. Карточка пакета появится в ${channel} для одобрения.`,
  quotedFailed:
    ":warning: Kassa не смогла закончить расчёт пакета; ничего не отправлено. Попробуйте через несколько минут.",
  title: (register) => (register ? `Пакет выплат · ${register}` : "Пакет выплат"),
  asks: (who, rows, total) => `${who} просит выплатить *строк: ${rows}*, всего *${total}*.`,
  reasonLine: (reason) => `*Основание:* ${reason}`,
  rowLine: (row, to, amount, fee, arrives) =>
    `${row}. ${to} · *${amount}* · комиссия ${fee} · получит ${arrives}`,
  feeFrom: { balance: "с баланса", amount: "из суммы" },
  trusted: "доверенный",
  referenceLine: (reference) => `назначение: ${reference}`,
  refused: {
    duplicate: (row) => `тот же кошелёк и сумма, что в строке ${row}: остановлена до сервиса`,
    method_not_allowed: (methods) => `правила выплат не разрешают этот метод (разрешены: ${methods})`,
    unknown_recipient: (label) => `нет доверенного получателя с названием ${label}`,
    invalid: (detail) => `неверно: ${detail}`,
    service_refused: (words) => `сервис отказал: ${words}`,
    cap: () => "превысила бы дневной лимит",
    other: (detail) => `отказано (${detail})`,
    unanswered: () => "сервис не ответил на расчёт: уберите строку и запросите её снова",
  },
  dropped: (who) => `убрана: ${who}`,
  rowState: {
    waiting: "",
    approved: "одобрена",
    sending: "отправляется",
    sent: "отправлена",
    paid: "выплачена",
    failed: "не прошла",
    not_sent: "не отправлена",
  },
  perMethod: "По методам",
  methodLine: (method, rows, arrives, fees, leaves) =>
    `${method} · строк: ${rows} · получат ${arrives} · комиссии ${fees} · спишется с баланса ${leaves}`,
  balanceIs: (balance) => ` · баланс ${balance}`,
  balanceUnknown: "не прочитан",
  short: (method, balance, leaves) =>
    `:warning: Баланс ${method} (${balance}) меньше, чем спишет пакет (${leaves}): строки будут отклонены при отправке. Пополните его до одобрения или отмените пакет.`,
  rule: (needed, rule, at, anyUntrusted) => {
    if (anyUntrusted)
      return "Нужно *2 одобрения*: в пакете есть кошелёк, не являющийся доверенным получателем.";
    if (rule === "trusted_one")
      return `Нужно *1 одобрение*: все строки — доверенным получателям, а итог меньше ${at}.`;
    return needed === 2
      ? `Нужно *2 одобрения*: итог ${at} или больше.`
      : `Нужно *1 одобрение*: итог меньше ${at}.`;
  },
  votesSoFar: (names, count, needed) => `Одобрили: ${names} (${count} из ${needed}).`,
  howToApprove: (typed) => `Чтобы одобрить, нажмите «Одобрить» и введите \`${typed}\` (строки и итог).`,
  refusedLeft: (count) =>
    `:warning: Отклонено строк: ${count}. Запросивший убирает их («Убрать отклонённые») или отменяет пакет; до этого одобрить нельзя.`,
  expires: (time) => `Одобрить можно до ${time}.`,
  status: {
    quoting: ":hourglass_flowing_sand: Запрашиваем расчёт у сервиса…",
    waiting: ":hourglass: Ждёт одобрения",
    approved: ":rocket: Одобрен: строки отправляются",
    ended: ":white_check_mark: Готово: все строки завершены",
    expired: ":alarm_clock: Истёк без одобрения: ничего не отправлено, все расчёты отменены",
  },
  rejectedBy: (who, reason) =>
    `:x: Отклонил(а) ${who}: ${reason}. Ничего не отправлено; все расчёты отменены.`,
  cancelledBy: (who) =>
    `:heavy_multiplication_x: Отменил(а) ${who}. Ничего не отправлено; все расчёты отменены.`,
  stoppedBy: (who, reason) =>
    `:octagonal_sign: Остановил(а) ${who}: ${reason}. Ещё не отправленные строки не отправлены; уже отправленные дойдут до конца.`,
  stop: "Остановить неотправленные",
  stopTitle: "Остановить отправку",
  stopIntro:
    "Ещё не отправленные строки пакета не отправятся (их расчёты отменяются); уже отправленные дойдут до конца.",
  cancelledLost:
    ":heavy_multiplication_x: Отменён: Kassa остановилась во время расчёта. Ничего не отправлено; запросите снова.",
  cancelledUnshown:
    ":heavy_multiplication_x: Отменён: канал одобрения не принял карточку пакета. Ничего не отправлено; все расчёты отменены.",
  unshown: (rows, channel, because, fix) =>
    `:warning: Пакет выплат (строк: ${rows}) не удалось показать для одобрения в ${channel}: ${because}. Он отменён: ничего не отправлено, все расчёты отменены. ${fix}`,
  unshownBecause: {
    not_in_channel: "Kassa нет в этом канале (или она его не видит)",
    archived: "этот канал в архиве",
    restricted: "настройки рабочего пространства не дают Kassa писать туда",
  },
  unshownFix: {
    invite: (channel) =>
      `Пригласите Kassa в ${channel} (наберите там \`/invite @Kassa\`), затем запросите пакет снова командой \`/payout batch\`.`,
    setup:
      "Попросите администратора выбрать другой канал одобрения (`/payout setup`), затем запросите пакет снова командой `/payout batch`.",
  },
  progress: (sent, rows, paid, failed, notSent) =>
    `*Отправлено ${sent} из ${rows}* · выплачено ${paid} · не прошло ${failed}${notSent > 0 ? ` · не отправлено ${notSent}` : ""}`,
  approve: "Одобрить",
  reject: "Отклонить",
  drop: "Убрать отклонённые",
  cancel: "Отменить пакет",
  cancelConfirm: {
    title: "Отменить пакет?",
    text: "Все расчёты будут отменены, ничего не отправится.",
    confirm: "Отменить пакет",
    deny: "Оставить",
  },
  approveTitle: "Одобрить пакет",
  approveLabel: "Строки и итог",
  approveHint: (rows, total, typed) =>
    `В пакете строк: ${rows}, всего ${total}. Введите ${typed}, чтобы одобрить.`,
  rejectTitle: "Отклонить пакет",
  rejectLabel: "Почему (увидит запросивший)",
  typedMismatch: (rows, total, typed) =>
    `Это не этот пакет: в нём строк ${rows}, всего ${total}. Введите ${typed}.`,
  refusedRows: (count) =>
    `В пакете отклонено строк: ${count}; сначала запросивший их убирает («Убрать отклонённые»).`,
  noRefusedRows: "В пакете нет отклонённых строк: убирать нечего.",
  quoting: "Kassa ещё считает этот пакет: попробуйте через минуту.",
  done: {
    approval_noted: () => "Ваше одобрение учтено; нужно ещё одно.",
    approved: () => "Одобрено: строки отправляются. Карточка следит за каждой.",
    rejected: () => "Отклонено: все расчёты отменяются, ничего не отправится.",
    stopped: () => "Остановлено: ещё не отправленные строки не отправятся; уже отправленные дойдут до конца.",
    cancelled: () => "Пакет отменён: все расчёты отменяются, ничего не отправится.",
    dropped: (count) => `Убрано отклонённых строк: ${count}; пакет ждёт одобрения.`,
  },
  resultComment: (rows, paid) =>
    `Итог пакета: строк ${rows}, выплачено ${paid} (номер выплаты, состояние и ответ сервиса).`,
  resultTitle: "Итог пакета выплат",
  fallback: "Пакет выплат",
};
