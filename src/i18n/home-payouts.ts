import type { Lang } from "./lang.js";
import { counted } from "./plural.js";

/**
 * App Home's payouts part (issue 52): per register where payouts are on, its approval rules and its
 * trusted recipients. Registers, counts and mentions arrive formatted.
 */
export type HomePayoutsText = {
  title: string;
  /** A register's heading where the workspace has several. */
  ofRegister: (register: string) => string;
  recipientsTitle: (count: number) => string;
  noneTrusted: string;
  /** More trusted recipients than App Home lists. */
  more: (count: number) => string;
  unread: string;
  /** Registers with payouts on that App Home had no room for. */
  moreRegisters: (count: number) => string;
};

const en: HomePayoutsText = {
  title: "*Payouts*",
  ofRegister: (register) => `*Payouts* · register ${register}`,
  recipientsTitle: (count) => `*Trusted recipients* (${count})`,
  noneTrusted:
    "No trusted recipients yet: `/payout recipient add` adds one, and two approvers confirm it with the wallet's last four.",
  more: (count) => `…and ${count} more: \`/payout recipients\` lists them all.`,
  unread: "The trusted recipients could not be read just now: `/payout recipients` lists them.",
  moreRegisters: (count) =>
    `Payouts are on in ${counted("en", count, { one: "more register", other: "more registers" })}: \`/payout policy\` and \`/payout recipients\` in its channel show each.`,
};

const ru: HomePayoutsText = {
  title: "*Выплаты*",
  ofRegister: (register) => `*Выплаты* · касса ${register}`,
  recipientsTitle: (count) => `*Доверенные получатели* (${count})`,
  noneTrusted:
    "Доверенных получателей пока нет: `/payout recipient add` добавляет получателя, два одобряющих подтверждают его четырьмя последними знаками кошелька.",
  more: (count) => `…и ещё ${count}: все показывает \`/payout recipients\`.`,
  unread: "Доверенных получателей сейчас не удалось прочитать: их показывает `/payout recipients`.",
  moreRegisters: (count) =>
    `Выплаты включены ещё в ${counted("ru", count, { one: "кассе", few: "кассах", many: "кассах", other: "кассах" })}: \`/payout policy\` и \`/payout recipients\` в канале кассы покажут каждую.`,
};

export const HOME_PAYOUTS_TEXT: Record<Lang, HomePayoutsText> = { en, ru };
