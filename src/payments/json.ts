/**
 * A JSON number exactly as the service wrote it. JSON.parse would turn `12345678.123456789` into the
 * nearest double (12345678.12345679): for money we keep the digits instead.
 */
export class JsonNumber {
  constructor(readonly text: string) {}
}

/** A JSON number, matched where a value starts outside strings. */
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Key of the stand-in object a number becomes before JSON.parse; no JSON the service sends has it. */
const MARKER = "\u0000number";

/**
 * Wraps every number outside string literals in a stand-in object. One pass over the text: string
 * literals are skipped with indexOf (an unterminated one ends the scan). A regex alternating strings
 * and numbers did this before, but on an unterminated string it rescanned the rest of the text from
 * every quote: 200 KB of `"\` took minutes.
 */
function markNumbers(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      // The closing quote is the next one not escaped: preceded by an even run of backslashes.
      let close = text.indexOf('"', index + 1);
      while (close !== -1) {
        let slashes = 0;
        while (text.charCodeAt(close - 1 - slashes) === 0x5c) slashes += 1;
        if (slashes % 2 === 0) break;
        close = text.indexOf('"', close + 1);
      }
      if (close === -1) break;
      index = close + 1;
      continue;
    }
    if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      NUMBER.lastIndex = index;
      const match = NUMBER.exec(text);
      if (match) {
        const token = match[0];
        parts.push(text.slice(copied, index), `{"\\u0000number":"${token}"}`);
        index += token.length;
        copied = index;
        continue;
      }
    }
    index += 1;
  }
  parts.push(text.slice(copied));
  return parts.join("");
}

/**
 * JSON.parse, except that every number becomes a JsonNumber holding its source text. Strings,
 * booleans and structure are untouched, so a number where a string belongs still fails validation.
 * Throws SyntaxError on invalid JSON, as JSON.parse does.
 */
export function parseJsonExact(text: string): unknown {
  const marked = markNumbers(text);
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
