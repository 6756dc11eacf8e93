import type { HistoryEntry } from "../payments/history.js";
import type { Money } from "../payments/model.js";
import { PAYMENT_PAGE_HOST } from "../payments/payment-link.js";
import type { ServiceTime } from "../payments/time.js";

/**
 * The export's columns, one row per invoice. Headers are field names, the same in every language, so
 * a reconciliation sheet or script that reads them keeps working whoever made the file.
 */
export const EXPORT_COLUMNS = [
  "id",
  "created_at",
  "state",
  "type",
  "amount",
  "currency",
  "amount_rub",
  "paid_amount",
  "paid_currency",
  "commission",
  "commission_currency",
  "method",
  "description",
  "extra",
  "payment_link",
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

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
};

export function exportRow(entry: HistoryEntry): ExportRow {
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
    extra: details?.extra ?? null,
    link: details?.url ?? `https://${PAYMENT_PAGE_HOST}/?i=${entry.id}`,
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

/** The row as CSV cells, in EXPORT_COLUMNS order: exact decimals with a dot, no grouping, no formula. */
export function textCells(row: ExportRow): string[] {
  return [
    inertText(row.id),
    isoWithOffset(row.createdAt),
    inertText(row.state),
    inertText(row.type),
    inertAmount(row.amount?.value),
    inertText(row.amount?.currency),
    inertAmount(row.rub),
    inertAmount(row.paid?.value),
    inertText(row.paid?.currency),
    inertAmount(row.commission?.value),
    inertText(row.commission?.currency),
    inertText(row.method),
    inertText(row.description),
    inertText(row.extra),
    inertText(row.link),
  ];
}
