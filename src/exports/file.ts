import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EXPORT_COLUMNS, type ExportRow, textCells } from "./columns.js";
import { csvRecord, UTF8_BOM } from "./csv.js";
import { XlsxWriter } from "./xlsx.js";

export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An export being written: rows in, then the finished file on disk (removed by `dispose`). */
export type ExportFile = {
  add(row: ExportRow): void;
  finish(): Promise<WrittenFile>;
  /** An export that ends without its file: the temporary file goes. */
  discard(): void;
};

export type WrittenFile = { path: string; length: number; dispose(): void };

/**
 * CSV (RFC 4180, UTF-8 with a byte order mark, a header row) or xlsx (typed cells, frozen header),
 * written to a temporary file as the rows come (a month is megabytes: only a block of it is ever in
 * memory; the upload streams it from disk). The caller disposes of it once sent, or not.
 */
export function exportFile(format: ExportFormat, options: { sheetName: string; zone: string }): ExportFile {
  const dir = mkdtempSync(join(tmpdir(), "kassa-export-"));
  const path = join(dir, `export.${format}`);
  const fd = openSync(path, "w", 0o600);
  const write = (bytes: Uint8Array | string) =>
    void (typeof bytes === "string" ? writeSync(fd, bytes) : writeSync(fd, bytes));
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  const dispose = () => {
    close();
    rmSync(dir, { recursive: true, force: true });
  };
  const written = (): WrittenFile => {
    close();
    return { path, length: statSync(path).size, dispose };
  };
  if (format === "xlsx") {
    const writer = new XlsxWriter(write, options);
    return {
      add: (row) => writer.add(row),
      async finish() {
        await writer.finish();
        return written();
      },
      discard: dispose,
    };
  }
  let block = UTF8_BOM + csvRecord(EXPORT_COLUMNS);
  return {
    add(row) {
      block += csvRecord(textCells(row));
      if (block.length > 64_000) {
        write(block);
        block = "";
      }
    },
    async finish() {
      write(block);
      return written();
    },
    discard: dispose,
  };
}
