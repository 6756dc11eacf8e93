import Big from "big.js";
import { JsonNumber } from "./json.js";

// The one module that imports big.js (test/import-graph.test.ts keeps it so): Big is configured here,
// before any amount is read, and everyone else imports it from here.
// Division keeps 20 decimal places, rounding half up (big.js's own defaults, written down here).
Big.DP = 20;
Big.RM = Big.roundHalfUp;
// Plain notation for every exponent big.js can hold, so no amount is ever printed as 1e-7.
Big.NE = -1_000_000;
Big.PE = 1_000_000;

export { Big };

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * No amount has more significant digits than this, or a magnitude past 10^±MAX_MAGNITUDE: an answer
 * with one is unreadable. Without the bound, `1e99999` (8 bytes) becomes 100,000 digits to print.
 */
export const MAX_SIGNIFICANT_DIGITS = 40;
export const MAX_MAGNITUDE = 40;

/**
 * The exact decimal text of an amount: a JSON number as the service wrote it (v2, which a PHP backend
 * may write as 4.0e-6; parseJsonExact keeps its digits), a decimal string (v3), or a JS number
 * (String() gives the shortest text that reads back to it, so no 0.30000000000000004 appears).
 * Returns undefined for anything that is not a finite decimal.
 */
export function toDecimalString(value: unknown): string | undefined {
  let text: string;
  if (value instanceof JsonNumber) {
    text = value.text;
  } else if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === "string") {
    text = value.trim();
    if (!DECIMAL_TEXT.test(text)) return undefined;
  } else {
    return undefined;
  }
  if (!withinBounds(text)) return undefined;
  try {
    // big.js reads no leading "+".
    const result = new Big(text.replace(/^\+/, "")).toFixed();
    return result === "-0" ? "0" : result;
  } catch {
    return undefined;
  }
}

/**
 * Whether a decimal text has at most MAX_SIGNIFICANT_DIGITS significant digits and its first and last
 * significant digits lie within 10^±MAX_MAGNITUDE. Reads the text once, without big.js.
 */
function withinBounds(text: string): boolean {
  const match = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!match) return false;
  const whole = match[1] ?? "";
  const fraction = match[2] ?? "";
  const digits = `${whole}${fraction}`;
  const first = digits.search(/[1-9]/);
  if (first === -1) return true; // zero, whatever its exponent
  let last = digits.length - 1;
  while (digits.charCodeAt(last) === 0x30) last -= 1;
  if (last - first + 1 > MAX_SIGNIFICANT_DIGITS) return false;
  const exponentText = match[3] ?? "0";
  // A long exponent is out of bounds however it is padded with zeros; Number reads a short one exactly.
  const exponent =
    exponentText.replace(/^[+-]?0*/, "").length > 6
      ? exponentText.startsWith("-")
        ? -Infinity
        : Infinity
      : Number(exponentText);
  // Power of ten of the first and of the last significant digit.
  const highest = whole.length - 1 - first + exponent;
  const lowest = whole.length - 1 - last + exponent;
  return highest <= MAX_MAGNITUDE && lowest >= -MAX_MAGNITUDE;
}

/** Exact sum of decimal strings (used for commission totals). */
export function addDecimals(...values: string[]): string {
  return values.reduce((sum, value) => sum.plus(value), new Big(0)).toFixed();
}

export function compareDecimals(a: string, b: string): number {
  return new Big(a).cmp(b);
}
