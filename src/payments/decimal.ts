import Big from "big.js";

// Plain notation for every exponent big.js can hold, so no amount is ever printed as 1e-7.
Big.NE = -1_000_000;
Big.PE = 1_000_000;

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * The exact decimal text of an amount as the service wrote it: a JSON number (v2, which a PHP
 * backend may write as 4.0e-6) or a decimal string (v3). JSON.parse has already turned a number into
 * the nearest double; String() of that double is the shortest text that reads back to it, i.e. the
 * digits the service sent, so no binary-float artefact (0.30000000000000004) can appear here.
 * Returns undefined for anything that is not a finite decimal.
 */
export function toDecimalString(value: unknown): string | undefined {
  let text: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === "string") {
    text = value.trim();
    if (!DECIMAL_TEXT.test(text)) return undefined;
  } else {
    return undefined;
  }
  try {
    const result = new Big(text).toFixed();
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
