import { fallbackDate } from "../i18n/dates.js";
import { INVOICE_CARD_TEXT } from "../i18n/invoice-card.js";
import type { Lang } from "../i18n/lang.js";
import { formatDecimalIn } from "../i18n/numbers.js";
import type { Money, ServiceTime } from "../payments/model.js";

/**
 * 1234567.0000001 -> "1,234,567.0000001" (English) or "1 234 567,0000001" (Russian, through
 * Intl.NumberFormat on the exact string): digits grouped, every decimal kept.
 */
export function formatDecimal(value: string, lang: Lang = "en"): string {
  if (lang !== "en") return formatDecimalIn(lang, value);
  const negative = value.startsWith("-");
  const unsigned = negative ? value.slice(1) : value;
  const [whole = "0", fraction] = unsigned.split(".");
  // A loop, not /\B(?=(\d{3})+(?!\d))/: that lookahead rescans the rest of the number at every digit.
  const groups: string[] = [];
  for (let end = whole.length; end > 0; end -= 3) groups.push(whole.slice(Math.max(0, end - 3), end));
  const grouped = groups.reverse().join(",");
  return `${negative ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}

const ISO_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const minorUnitsCache = new Map<string, number | undefined>();

/**
 * The ISO 4217 minor units of a currency (RUB and USD 2, JPY 0, KWD 3), or undefined for a code
 * outside ISO 4217 (BTC, USDT, TON), whose amounts are shown with exactly the digits the service sent.
 */
export function minorUnits(currency: string): number | undefined {
  const code = currency.toUpperCase();
  if (minorUnitsCache.has(code)) return minorUnitsCache.get(code);
  const digits = ISO_CURRENCIES.has(code)
    ? new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
        .minimumFractionDigits
    : undefined;
  minorUnitsCache.set(code, digits);
  return digits;
}

/**
 * "1500.5" RUB is written "1500.50": money is padded with zeros to its currency's minor units (the
 * exact values drop trailing zeros), never rounded: an amount with more digits keeps all of them.
 */
export function padToMinorUnits(value: string, currency: string | undefined): string {
  const digits = currency === undefined ? undefined : minorUnits(currency);
  if (!digits || !/^-?\d+(\.\d+)?$/.test(value)) return value;
  const [whole, fraction = ""] = value.split(".");
  return fraction.length >= digits ? value : `${whole}.${fraction.padEnd(digits, "0")}`;
}

/** An amount and its currency code as finance staff write them: "1,500.50 RUB", "1 500,50 RUB". */
export function formatAmount(value: string, currency: string, lang: Lang = "en"): string {
  return `${formatDecimal(padToMinorUnits(value, currency), lang)} ${currency}`;
}

/**
 * An amount is never shown without its currency, or without saying the service's answer does not
 * tie it to one (a v3 answer naming two different invoice currencies; the card says which two).
 */
export function formatMoney(money: Money, lang: Lang = "en"): string {
  return money.currency === null
    ? `${formatDecimal(money.value, lang)} ${INVOICE_CARD_TEXT[lang].currencyUnclear}`
    : formatAmount(money.value, money.currency, lang);
}

/**
 * A Slack date token: every reader sees the moment in their own timezone. The fallback (old clients,
 * notifications) is the service's own text with the zone it was read in.
 */
export function slackDate(time: ServiceTime, lang: Lang = "en"): string {
  const fallback = lang === "en" ? time.text : fallbackDate(lang, time.epochSeconds, time.zone);
  return `<!date^${time.epochSeconds}^{date_short_pretty} {time}|${fallback} ${time.zone}>`;
}

/** Same token for a moment we measured ourselves (e.g. "updated"), with a UTC fallback. */
export function slackDateFromEpoch(epochSeconds: number, lang: Lang = "en"): string {
  const fallback = `${
    lang === "en"
      ? new Date(epochSeconds * 1000).toISOString().slice(0, 19).replace("T", " ")
      : fallbackDate(lang, epochSeconds, "UTC")
  } UTC`;
  return `<!date^${epochSeconds}^{date_short_pretty} {time}|${fallback}>`;
}
