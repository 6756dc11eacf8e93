import type { Lang } from "./lang.js";

/**
 * The request form's trusted recipient picker (issue 52): the drop-down, the hints on the method and
 * wallet beside it, and what a submission is told when the two do not fit together. Labels arrive as
 * the recipient's plain label (field errors are plain text), methods and wallets as written.
 */
export type PayoutPickText = {
  recipient: string;
  recipientHint: string;
  /** A recipient's option: its label, method and wallet shortened. */
  option: (label: string, method: string, wallet: string) => string;
  /** After the method's and the wallet's own hints, where a recipient can be picked instead. */
  orPick: string;
  /** Neither a recipient picked nor a method and a wallet given. */
  nothingToPay: string;
  /** The picked recipient is no longer trusted (removed since the form opened, or its wallet changed). */
  notTrusted: (label: string) => string;
  /** A recipient picked and a method or wallet typed that are not its own. */
  disagree: (label: string, method: string, wallet: string) => string;
};

export const PAYOUT_PICK_TEXT: Record<Lang, PayoutPickText> = {
  en: {
    recipient: "Trusted recipient",
    recipientHint:
      "Pick one to pay its saved method and wallet (leave the method and the wallet empty). A payout to a trusted recipient may need only one approver.",
    option: (label, method, wallet) => `${label} · ${method} · ${wallet}`,
    orPick: "Leave empty when you pick a trusted recipient above.",
    nothingToPay: "Pick a trusted recipient, or give both the payout method and the wallet.",
    notTrusted: (label) =>
      `${label} is no longer a trusted recipient (removed, or changed since the form opened). Pick another one, or give the method and the wallet; /payout recipients lists them.`,
    disagree: (label, method, wallet) =>
      `${label} is paid by ${method} to ${wallet}. Leave the method and the wallet empty to pay it, or pick no recipient to pay another wallet.`,
  },
  ru: {
    recipient: "Доверенный получатель",
    recipientHint:
      "Выберите, чтобы выплатить сохранённым способом на сохранённый кошелёк (способ и кошелёк оставьте пустыми). Выплате доверенному получателю может хватить одного одобряющего.",
    option: (label, method, wallet) => `${label} · ${method} · ${wallet}`,
    orPick: "Оставьте пустым, если выбрали доверенного получателя выше.",
    nothingToPay: "Выберите доверенного получателя или укажите и способ выплаты, и кошелёк.",
    notTrusted: (label) =>
      `${label} больше не доверенный получатель (удалён или изменён, пока форма была открыта). Выберите другого или укажите способ и кошелёк; список — /payout recipients.`,
    disagree: (label, method, wallet) =>
      `${label} получает выплаты способом ${method} на ${wallet}. Чтобы заплатить ему, оставьте способ и кошелёк пустыми; чтобы заплатить на другой кошелёк, не выбирайте получателя.`,
  },
};
