/**
 * RFC 4180: fields separated by commas, records ended by CRLF, a field with a comma, a double quote,
 * CR or LF wrapped in double quotes with its quotes doubled; one with a semicolon too, for the Excel
 * that splits a .csv on `;` (Russian and German settings). UTF-8 with a byte order mark first, so
 * Excel reads Cyrillic descriptions as written. Hand-written: this is all csv-stringify would do for
 * us (see the commit that added it for the comparison).
 */
export const UTF8_BOM = "\uFEFF";

const NEEDS_QUOTES = /[",;\r\n]/;

export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** One record, CRLF included. */
export function csvRecord(values: readonly string[]): string {
  let line = "";
  for (let index = 0; index < values.length; index += 1) {
    if (index > 0) line += ",";
    line += csvField(values[index] ?? "");
  }
  return `${line}\r\n`;
}
