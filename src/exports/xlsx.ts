import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { EXPORT_COLUMN_SPECS, EXPORT_COLUMNS, type ExportColumnSpec, type ExportRow } from "./columns.js";

/**
 * A one-sheet xlsx written row by row (fflate's streaming zip), so a month of invoices never sits in
 * memory as a workbook: typed cells (amounts as numbers, written as the exact decimal text Excel
 * reads; the created time as a date in the payment service's zone), a bold header row kept frozen
 * while scrolling, with a filter on it, inline strings (no shared-string table to hold). exceljs
 * does this too at 54 MB and 194 packages installed; write-excel-file holds the whole sheet (400 MB
 * for 50,000 rows).
 */
export class XlsxWriter {
  private readonly zip: Zip;
  private readonly sheet = new ZipDeflate("xl/worksheets/sheet1.xml", { level: 6 });
  private rowNumber = 1;
  private pending: string[] = [];
  private readonly done: Promise<void>;
  private readonly sheetName: string;

  constructor(
    /** Receives the file's bytes as they are made. */
    onChunk: (chunk: Uint8Array) => void,
    options: { sheetName: string; zone: string },
  ) {
    let finish: () => void = () => {};
    let fail: (error: Error) => void = () => {};
    this.done = new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
    this.zip = new Zip((error, chunk, final) => {
      if (error) return fail(error);
      onChunk(chunk);
      if (final) finish();
    });
    this.sheetName = options.sheetName.slice(0, 31);
    for (const [name, text] of staticParts()) this.addPart(name, text);
    this.zip.add(this.sheet);
    const header = EXPORT_COLUMNS.map((name) => (name === "created_at" ? `${name} (${options.zone})` : name));
    this.sheet.push(
      utf8(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${EXPORT_COLUMN_SPECS.map(({ width }, index) => `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`).join("")}</cols><sheetData>${this.row(header.map((name) => textCell(name, 1)))}`,
      ),
    );
  }

  add(row: ExportRow): void {
    this.pending.push(this.row(EXPORT_COLUMN_SPECS.map((column: ExportColumnSpec) => xlsxCell(column, row))));
    if (this.pending.length >= 500) this.flush();
  }

  /** Ends the sheet and the file; resolves once every byte went to onChunk. */
  async finish(): Promise<void> {
    this.flush();
    // A filter on the header row over every row (known only now), so the month can be sorted and
    // filtered by state or method at once; the workbook names its range, as Excel itself does.
    const last = COLUMN_LETTERS[EXPORT_COLUMNS.length - 1];
    const range = `A1:${last}${this.rowNumber - 1}`;
    this.sheet.push(utf8(`</sheetData><autoFilter ref="${range}"/></worksheet>`), true);
    this.addPart("xl/workbook.xml", workbookXml(this.sheetName, range));
    this.zip.end();
    await this.done;
  }

  private addPart(name: string, text: string): void {
    const part = new ZipPassThrough(name);
    this.zip.add(part);
    part.push(utf8(text), true);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.sheet.push(utf8(this.pending.join("")));
    this.pending = [];
  }

  private row(cells: Cell[]): string {
    const number = this.rowNumber;
    this.rowNumber += 1;
    let xml = `<row r="${number}">`;
    cells.forEach((cell, index) => {
      if (cell) xml += `<c r="${COLUMN_LETTERS[index]}${number}"${cell.attributes}>${cell.body}</c>`;
    });
    return `${xml}</row>`;
  }
}

const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".split("");

const encoder = new TextEncoder();
const utf8 = (text: string) => encoder.encode(text);

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const NOT_IN_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** XML 1.0 text: markup characters escaped, characters XML cannot hold dropped. */
function xmlText(value: string): string {
  return value
    .replace(NOT_IN_XML, "")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

/**
 * A cell's attributes after its reference, and what goes inside; null: an empty cell, not written.
 * Text is an inline string, which a spreadsheet never runs as a formula: it is kept exactly as written.
 */
export type Cell = { attributes: string; body: string } | null;

function textCell(value: string | null | undefined, style = 0): Cell {
  if (value == null || value === "") return null;
  return {
    attributes: ` t="inlineStr"${style ? ` s="${style}"` : ""}`,
    body: `<is><t xml:space="preserve">${xmlText(value)}</t></is>`,
  };
}

/**
 * An amount: a number cell when Excel (a double: 15 significant digits) shows it exactly as the
 * service wrote it; anything longer, or not a plain decimal, stays text, as written, never rounded.
 */
export function numberCell(value: string | null | undefined): Cell {
  if (value == null || value === "") return null;
  const decimal = /^-?(\d+)(?:\.(\d+))?$/.exec(value);
  if (!decimal) return textCell(value);
  const digits = `${decimal[1]}${decimal[2] ?? ""}`.replace(/^0+/, "").replace(/0+$/, "");
  return digits.length <= 15 ? { attributes: "", body: `<v>${value}</v>` } : textCell(value);
}

/** A column's cell of `row`: text as an inline string, an amount as a number where exact, the time as a date. */
function xlsxCell(column: ExportColumnSpec, row: ExportRow): Cell {
  if (column.kind === "time") return dateCell(column.time(row).text);
  const value = column.value(row);
  return column.kind === "amount" ? numberCell(value) : textCell(value);
}

/** The service's wall-clock text as an Excel date serial (days since 1899-12-30), date-formatted. */
function dateCell(text: string): Cell {
  const serial = Date.parse(`${text.replace(" ", "T")}Z`) / 86_400_000 + 25_569;
  return Number.isFinite(serial) ? { attributes: ' s="2"', body: `<v>${serial}</v>` } : textCell(text);
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** The workbook: its one sheet, and the filter's range named as Excel names it (a hidden name). */
function workbookXml(sheetName: string, range: string): string {
  const name = xmlText(sheetName).replaceAll('"', "&quot;");
  const [from, to] = range.split(":").map((cell) => cell.replace(/^([A-Z]+)(\d+)$/, "$$$1$$$2"));
  const quoted = `'${xmlText(sheetName).replaceAll("'", "''")}'`;
  return `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets><definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">${quoted}!${from}:${to}</definedName></definedNames></workbook>`;
}

function staticParts(): Array<[string, string]> {
  return [
    [
      "[Content_Types].xml",
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
    [
      "_rels/.rels",
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      "xl/_rels/workbook.xml.rels",
      `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    ],
    [
      "xl/styles.xml",
      `${XML_HEAD}<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="3"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
    ],
  ];
}
