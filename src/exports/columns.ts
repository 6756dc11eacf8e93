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

/**
 * Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or CR first) gets a `'` in
 * front: descriptions come from payers and shops, and a cell must never compute. Amounts are ours.
 */
export function inertText(value: string | null): string {
  if (value === null) return "";
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The row as text cells, in EXPORT_COLUMNS order: exact decimals with a dot, no grouping. */
export function textCells(row: ExportRow): string[] {
  return [
    row.id,
    isoWithOffset(row.createdAt),
    row.state,
    row.type ?? "",
    row.amount?.value ?? "",
    row.amount?.currency ?? "",
    row.rub ?? "",
    row.paid?.value ?? "",
    row.paid?.currency ?? "",
    row.commission?.value ?? "",
    row.commission?.currency ?? "",
    row.method ?? "",
    inertText(row.description),
    inertText(row.extra),
    row.link,
  ];
}
