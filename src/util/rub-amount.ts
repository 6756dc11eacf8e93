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
