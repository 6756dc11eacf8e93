/**
 * A JSON number exactly as the service wrote it. JSON.parse would turn `12345678.123456789` into the
 * nearest double (12345678.12345679): for money we keep the digits instead.
 */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/**
 * A whole string literal (escapes included), or a number. Strings are matched so that digits inside
 * them are skipped; anything else (structure, true/false/null, garbage) is left to JSON.parse.
 */
const TOKEN = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/** Key of the stand-in object a number becomes before JSON.parse; no JSON the service sends has it. */
const MARKER = "\u0000number";

/**
 * JSON.parse, except that every number becomes a JsonNumber holding its source text. Strings,
 * booleans and structure are untouched, so a number where a string belongs still fails validation.
 * Throws SyntaxError on invalid JSON, as JSON.parse does.
 */
export function parseJsonExact(text: string): unknown {
  const marked = text.replace(TOKEN, (token) =>
    token.charCodeAt(0) === 0x22 ? token : `{"\\u0000number":"${token}"}`,
  );
  // A walk after parsing rather than a reviver: V8 calls a reviver for every value, at twice the cost.
  return revive(JSON.parse(marked));
}

function revive(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) value[index] = revive(value[index]);
    return value;
  }
  const record = value as Record<string, unknown>;
  const number = record[MARKER];
  if (typeof number === "string") return new JsonNumber(number);
  for (const key of Object.keys(record)) {
    const revived = revive(record[key]);
    if (revived === record[key]) continue;
    // JSON.parse makes "__proto__" an own key; plain assignment would set the prototype instead.
    if (key === "__proto__")
      Object.defineProperty(record, key, {
        value: revived,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else record[key] = revived;
  }
  return value;
}
