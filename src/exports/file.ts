import { EXPORT_COLUMNS, type ExportRow, textCells } from "./columns.js";
import { csvRecord, UTF8_BOM } from "./csv.js";
import { XlsxWriter } from "./xlsx.js";

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An export being written: rows in, the file's bytes out. */
export type ExportFile = {
  add(row: ExportRow): void;
  finish(): Promise<Buffer>;
};

/** CSV (RFC 4180, UTF-8 with a byte order mark, a header row) or xlsx (typed cells, frozen header). */
export function exportFile(format: ExportFormat, options: { sheetName: string; zone: string }): ExportFile {
  const chunks: Buffer[] = [];
  if (format === "xlsx") {
    const writer = new XlsxWriter((chunk) => chunks.push(Buffer.from(chunk)), options);
    return {
      add: (row) => writer.add(row),
      async finish() {
        await writer.finish();
        return Buffer.concat(chunks);
      },
    };
  }
  // Records are gathered in blocks, so a month of invoices is a few hundred buffers, not 50,000 strings.
  let block = UTF8_BOM + csvRecord(EXPORT_COLUMNS);
  return {
    add(row) {
      block += csvRecord(textCells(row));
      if (block.length > 64_000) {
        chunks.push(Buffer.from(block, "utf8"));
        block = "";
      }
    },
    async finish() {
      chunks.push(Buffer.from(block, "utf8"));
      return Buffer.concat(chunks);
    },
  };
}
