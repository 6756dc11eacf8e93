import Big from "big.js";
import { JsonNumber } from "./json.js";

// Plain notation for every exponent big.js can hold, so no amount is ever printed as 1e-7.
Big.NE = -1_000_000;
Big.PE = 1_000_000;

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

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
  try {
    // big.js reads no leading "+".
    const result = new Big(text.replace(/^\+/, "")).toFixed();
    return result === "-0" ? "0" : result;
  } catch {
    return undefined;
  }
}

/** Exact sum of decimal strings (used for commission totals). */
export function addDecimals(...values: string[]): string {
  return values.reduce((sum, value) => sum.plus(value), new Big(0)).toFixed();
}

export function compareDecimals(a: string, b: string): number {
  return new Big(a).cmp(b);
}
