/**
 * A rouble amount as people write it in a command or a form, as the decimal string the feed
 * compares with big.js: `10000`, `10 000`, `10,000` (English thousands), `10000,50` or `10000.50`
 * (kopecks), with `RUB`, `руб` or `₽` after it. `null`: nothing written; `"invalid"`: not an amount
 * (zero, more than two decimals, letters).
 */
export function parseRubAmount(text: string): string | null | "invalid" {
  const written = text
    .trim()
    .replace(/\s*(rub|руб\.?|рублей|₽|р\.)$/i, "")
    .replace(/[\s\u00a0\u202f]/g, "");
  if (written === "") return null;
  let digits: string;
  if (/^\d{1,3}(,\d{3})+(\.\d{1,2})?$/.test(written)) digits = written.replace(/,/g, "");
  else if (/^\d+([.,]\d{1,2})?$/.test(written)) digits = written.replace(",", ".");
  else return "invalid";
  const [whole = "", fraction] = digits.split(".");
  const trimmed = whole.replace(/^0+(?=\d)/, "");
  if (trimmed.length > 12) return "invalid";
  const value = fraction && /[1-9]/.test(fraction) ? `${trimmed}.${fraction.replace(/0+$/, "")}` : trimmed;
  return /^0+$/.test(value) ? "invalid" : value;
}

/** Why a written amount was not read: nothing, not a number, readable more than one way, or zero. */
export type AmountUnread = "empty" | "not_a_number" | "ambiguous" | "zero";

/** English thousands: `10,000`, `1,234,567.89` (a first group of 1 to 3 digits, not a lone 0). */
const COMMA_THOUSANDS = /^[1-9]\d{0,2}(,\d{3})+(\.\d+)?$/;
const DOT_DECIMAL = /^\d+(\.\d+)?$/;
/** A decimal comma: one comma followed by anything but exactly three digits (`10000,50`, `10,5`). */
const COMMA_DECIMAL = /^\d+,(\d{1,2}|\d{4,})$/;

/**
 * An amount in any currency as people write it in the payout form or the one-line `/payout`, as
 * an exact decimal string with its decimals as typed (the service signs the text): spaces group
 * digits (`10 000`); commas in groups of three are English thousands (`10,000` is ten thousand,
 * `1,234,567.89`); a point is the decimal point (`1500.50`, `0.00012`); a single comma followed
 * by anything but exactly three digits is a decimal comma (`10000,50`, `10,5`; `10,00` is ten).
 * Anything readable more than one way is "ambiguous" and refused, never guessed: `1.000,50` (a
 * point before a comma), `1.000.000` (points as thousands), `1,234,5` (a group not of three),
 * `10,000.5,1`, and three digits after a comma that cannot be thousands (`0,125`, `1000,500`:
 * write `0.125`).
 */
export function readWrittenAmount(
  text: string,
): { ok: true; value: string } | { ok: false; why: AmountUnread } {
  const written = text.trim().replace(/[\s\u00a0\u202f]/g, "");
  if (written === "") return { ok: false, why: "empty" };
  if (!/^\d[\d.,]*$/.test(written) || /[.,]$/.test(written) || /[.,]{2}/.test(written))
    return { ok: false, why: "not_a_number" };
  let plain: string;
  if (COMMA_THOUSANDS.test(written)) plain = written.replace(/,/g, "");
  else if (DOT_DECIMAL.test(written)) plain = written;
  else if (COMMA_DECIMAL.test(written)) plain = written.replace(",", ".");
  else return { ok: false, why: "ambiguous" };
  const [whole = "", fraction] = plain.split(".");
  const value = `${whole.replace(/^0+(?=\d)/, "")}${fraction === undefined ? "" : `.${fraction}`}`;
  return /^[0.]+$/.test(value) ? { ok: false, why: "zero" } : { ok: true, value };
}
