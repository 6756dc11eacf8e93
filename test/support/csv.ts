/**
 * A CSV read as a spreadsheet reads it with `separator`: a quote opens a field only at its start (one
 * later in the field is a character), a line break outside quotes ends the row.
 */
export function readCsv(text: string, separator: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let atStart = true;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i] as string;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
      continue;
    }
    if (char === '"' && atStart) {
      quoted = true;
      atStart = false;
    } else if (char === separator) {
      row.push(field);
      field = "";
      atStart = true;
    } else if (char === "\n" || (char === "\r" && text[i + 1] === "\n")) {
      if (char === "\r") i += 1;
      rows.push([...row, field]);
      row = [];
      field = "";
      atStart = true;
    } else {
      field += char;
      atStart = false;
    }
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** A cell a spreadsheet would run: a formula's first character, unless the whole cell is a plain number. */
export const computes = (cell: string) => /^[=+\-@\t\r]/.test(cell) && !/^-?\d+(\.\d+)?$/.test(cell);
