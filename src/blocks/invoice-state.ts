import { INVOICE_CARD_TEXT } from "../i18n/invoice-card.js";
import type { Lang } from "../i18n/lang.js";
import type { Invoice } from "../payments/model.js";
import { inlineCode, truncate } from "./mrkdwn.js";

export type StateLook = { emoji: string; label: string };

type KnownState = keyof (typeof INVOICE_CARD_TEXT)["en"]["states"];

const STATE_EMOJI: Record<KnownState, string> = {
  notpayed: ":hourglass_flowing_sand:",
  processing: ":arrows_counterclockwise:",
  wrongamount: ":warning:",
  failed: ":x:",
  payed: ":white_check_mark:",
  unavailable: ":no_entry:",
};

function buildStates(lang: Lang): Record<string, StateLook> {
  const labels = INVOICE_CARD_TEXT[lang].states;
  return Object.fromEntries(
    (Object.keys(STATE_EMOJI) as KnownState[]).map((state) => [
      state,
      { emoji: STATE_EMOJI[state], label: labels[state] },
    ]),
  );
}

const STATES: Record<Lang, Record<string, StateLook>> = { en: buildStates("en"), ru: buildStates("ru") };

/** Every state the service is known to use (notes/payments-api.md), in a language; others are shown verbatim. */
export function invoiceStates(lang: Lang): Record<string, StateLook> {
  return STATES[lang];
}

/** The English table (tests and older callers). */
export const INVOICE_STATES: Record<string, StateLook> = STATES.en;

/** Own keys only: a state named "constructor" or "__proto__" is unknown, not Object's. */
export function lookup<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

export function isKnownState(state: string): boolean {
  return lookup(INVOICE_STATES, state) !== undefined;
}

/** "Not paid" with its emoji, or "Unknown state `refunded`" (escaped, in code). */
export function stateText(state: string, lang: Lang = "en"): string {
  const look = lookup(STATES[lang], state);
  return look
    ? `${look.emoji} ${look.label}`
    : `:grey_question: ${INVOICE_CARD_TEXT[lang].unknownState(inlineCode(truncate(state, 100)))}`;
}

/** Said under an unknown state, so nobody reads more into it than the service told us. */
export const UNKNOWN_STATE_HINT = INVOICE_CARD_TEXT.en.unknownStateHint;

export function plainState(state: string, lang: Lang = "en"): string {
  return lookup(STATES[lang], state)?.label ?? state;
}

/** An unpaid invoice past its expiry: the service keeps it `notpayed`, so we compare with now. */
export function isExpired(invoice: Invoice, now: Date): boolean {
  return invoice.state === "notpayed" && invoice.expiredAt.epochSeconds * 1000 < now.getTime();
}
