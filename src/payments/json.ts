/**
 * A JSON number exactly as the service wrote it. JSON.parse would turn `12345678.123456789` into the
 * nearest double (12345678.12345679): for money we keep the digits instead.
 */
export class JsonNumber {
  constructor(readonly text: string) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Key of the stand-in object a number becomes before JSON.parse; no JSON the service sends has it. */
const MARKER = "\u0000number";

/**
 * JSON.parse, except that every number becomes a JsonNumber holding its source text. Strings,
 * booleans and structure are untouched, so a number where a string belongs still fails validation.
 * Throws SyntaxError on invalid JSON, as JSON.parse does.
 */
export function parseJsonExact(text: string): unknown {
  let out = "";
  let index = 0;
  while (index < text.length) {
    const char = text[index] as string;
    if (char === '"') {
      // Copy a whole string literal, escapes included.
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else if (char === "-" || (char >= "0" && char <= "9")) {
      NUMBER.lastIndex = index;
      const match = NUMBER.exec(text);
      if (!match) throw new SyntaxError(`Unexpected token in JSON at position ${index}`);
      out += `{"\\u0000number":"${match[0]}"}`;
      index += match[0].length;
    } else {
      out += char;
      index += 1;
    }
  }
  return JSON.parse(out, (_key, value: unknown) =>
    value !== null && typeof value === "object" && MARKER in value
      ? new JsonNumber(String((value as Record<string, unknown>)[MARKER]))
      : value,
  );
}
