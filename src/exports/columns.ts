import type { HistoryEntry } from "../payments/history.js";
import { ownExtra } from "../payments/marker.js";
import type { Money } from "../payments/model.js";
import { PAYMENT_PAGE_HOST } from "../payments/payment-link.js";
import type { ServiceTime } from "../payments/time.js";

/** A row's values, typed: amounts stay exact decimal strings, the time keeps its zone. */
export type ExportRow = {
  id: string;
  createdAt: ServiceTime;
  state: string;
  type: string | null;
  amount: Money | null;
  rub: string | null;
  paid: Money | null;
  commission: Money | null;
  method: string | null;
  description: string | null;
  extra: string | null;
  link: string;
  /** Refunds paid out for the invoice (issue 52), summed, in its payment's currency; apart from `paid`. */
  refunded: Money | null;
};

/** The invoice's row; `refunded`: what refunds of it have given back so far (none: null). */
export function exportRow(entry: HistoryEntry, refunded: Money | null = null): ExportRow {
  const details = entry.details;
  return {
    id: entry.id,
    createdAt: entry.createdAt,
    state: entry.state,
    type: details?.type ?? null,
    amount: entry.amount,
    rub: entry.rub,
    paid: details?.paid ?? null,
    commission: details?.commission ?? null,
    method: entry.method,
    description: details?.description ?? null,
    // The user's own text: Kassa's marker is never written as if it were theirs.
    extra: ownExtra(details?.extra),
    link: details?.url ?? `https://${PAYMENT_PAGE_HOST}/?i=${entry.id}`,
    refunded,
  };
}

/** `2026-11-26T14:30:00+03:00`: the service's wall-clock time with its zone's offset at that moment. */
export function isoWithOffset(time: ServiceTime): string {
  const offsetMinutes = Math.round(
    (Date.parse(`${time.text.replace(" ", "T")}Z`) / 1000 - time.epochSeconds) / 60,
  );
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(offsetMinutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, "0");
  const minutes = String(absolute % 60).padStart(2, "0");
  return `${time.text.replace(" ", "T")}${sign}${hours}:${minutes}`;
}

const FORMULA_FIRST = /^[=+\-@\t\r]/;
/**
 * Where else a cell may begin: after a `;` (Russian and German Excel split a .csv there, and a quote
 * inside a field protects nothing for them) and after a line break (a row ends there for them),
 * quotes in between included.
 */
const FORMULA_AFTER = /([;\r\n])(?="*[=+\-@\t\r])/g;
const EXACT_DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * Text of a CSV cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or CR
 * first, read with `,` or with `;`) gets a `'` in front: every text comes from the service, a payer
 * or a shop (an id, a method, a description alike), and a cell must never compute.
 */
export function inertText(value: string | null | undefined): string {
  if (value == null) return "";
  const inside = value.replace(FORMULA_AFTER, "$1'");
  return FORMULA_FIRST.test(inside) ? `'${inside}` : inside;
}

/** An amount: a plain decimal ("-5.00" too) stays a number as written; anything else is text. */
export function inertAmount(value: string | null | undefined): string {
  if (value == null) return "";
  return EXACT_DECIMAL.test(value) ? value : inertText(value);
}

/**
 * What a column holds, which says how each file writes it: text (a CSV cell that never computes, an
 * xlsx inline string), an exact amount (a number where the file can hold it exactly), or the
 * invoice's creation time (ISO with its offset in CSV, a date cell in xlsx).
 */
export type ExportColumnSpec =
  | {
      name: string;
      width: number;
      kind: "text" | "amount";
      value: (row: ExportRow) => string | null | undefined;
    }
  | { name: string; width: number; kind: "time"; time: (row: ExportRow) => ServiceTime };

/**
 * The export's columns, one row per invoice, declared once for CSV and xlsx (width: the xlsx
 * column's, in characters). Headers are field names, the same in every language, so a
 * reconciliation sheet or script that reads them keeps working whoever made the file.
 */
export const EXPORT_COLUMN_SPECS = [
  { name: "id", width: 26, kind: "text", value: (row) => row.id },
  { name: "created_at", width: 20, kind: "time", time: (row) => row.createdAt },
  { name: "state", width: 12, kind: "text", value: (row) => row.state },
  { name: "type", width: 10, kind: "text", value: (row) => row.type },
  { name: "amount", width: 14, kind: "amount", value: (row) => row.amount?.value },
  { name: "currency", width: 8, kind: "text", value: (row) => row.amount?.currency },
  { name: "amount_rub", width: 14, kind: "amount", value: (row) => row.rub },
  { name: "paid_amount", width: 14, kind: "amount", value: (row) => row.paid?.value },
  { name: "paid_currency", width: 8, kind: "text", value: (row) => row.paid?.currency },
  { name: "commission", width: 12, kind: "amount", value: (row) => row.commission?.value },
  { name: "commission_currency", width: 8, kind: "text", value: (row) => row.commission?.currency },
  { name: "method", width: 14, kind: "text", value: (row) => row.method },
  { name: "description", width: 36, kind: "text", value: (row) => row.description },
  { name: "extra", width: 16, kind: "text", value: (row) => row.extra },
  { name: "payment_link", width: 44, kind: "text", value: (row) => row.link },
  // Last, so a sheet that reads the columns above by position keeps reading them (issue 52): what was
  // given back, never taken off `paid_amount`.
  { name: "refunded_amount", width: 14, kind: "amount", value: (row) => row.refunded?.value },
  { name: "refunded_currency", width: 8, kind: "text", value: (row) => row.refunded?.currency },
] as const satisfies readonly ExportColumnSpec[];

export const EXPORT_COLUMNS = EXPORT_COLUMN_SPECS.map((column) => column.name);
export type ExportColumn = (typeof EXPORT_COLUMN_SPECS)[number]["name"];

/** The row as CSV cells, in column order: exact decimals with a dot, no grouping, no formula. */
export function textCells(row: ExportRow): string[] {
  return EXPORT_COLUMN_SPECS.map((column: ExportColumnSpec) => {
    if (column.kind === "time") return isoWithOffset(column.time(row));
    const value = column.value(row);
    return column.kind === "amount" ? inertAmount(value) : inertText(value);
  });
}
