import { type Lang, LOCALES } from "./lang.js";

/** Intl.NumberFormat takes at most this many fraction digits. */
const MAX_FRACTION_DIGITS = 100;

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(lang: Lang, fractionDigits: number): Intl.NumberFormat {
  const key = `${lang}:${fractionDigits}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALES[lang], {
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
      useGrouping: true,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * An exact decimal string as the language writes numbers: "1234567.0000001" is "1,234,567.0000001"
 * in English, "1 234 567,0000001" in Russian (a no-break space between thousands, a decimal comma).
 * Intl.NumberFormat is given the string itself, which it reads as an exact decimal (never a float),
 * with exactly the fraction digits the string has, so nothing is rounded or added.
 */
export function formatDecimalIn(lang: Lang, value: string): string {
  const fraction = value.split(".")[1] ?? "";
  if (!/^-?\d+(\.\d+)?$/.test(value) || fraction.length > MAX_FRACTION_DIGITS) return value;
  // Intl's string input is exact (ES2023 Intl.NumberFormat v3); its type still says number.
  return formatterFor(lang, fraction.length).format(value as unknown as number);
}
