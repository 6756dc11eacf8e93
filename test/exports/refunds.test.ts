import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { fileComment } from "../../src/blocks/export.js";
import { EXPORT_COLUMNS, exportRow, textCells } from "../../src/exports/columns.js";
import { exportFile } from "../../src/exports/file.js";
import { exportRefunds, refundedOf, refundsNote } from "../../src/exports/refunds.js";
import type { HistoryEntry } from "../../src/payments/history.js";
import type { PaidRefund } from "../../src/reports/refunds.js";

// Refunds in an export (issue 52): a column of their own per invoice, a line of their own in the
// file's comment; the paid amounts and the paid total never netted.

const at = (iso: string) => Date.parse(iso) / 1000;
const SPAN = { from: at("2026-11-01T00:00:00Z"), to: at("2026-12-01T00:00:00Z") };

const REFUNDS: PaidRefund[] = [
  { invoiceId: "inv_a", payout: "p1", amount: "500", currency: "rub", at: "2026-11-10T10:00:00.000Z" },
  { invoiceId: "inv_a", payout: "p2", amount: "0.10", currency: "RUB", at: "2026-11-12T10:00:00.000Z" },
  // Paid out before the period: on its invoice's row, not in the period's line.
  { invoiceId: "inv_b", payout: "p3", amount: "12.5", currency: "USD", at: "2026-10-30T10:00:00.000Z" },
];

function entry(id: string, paid: string): HistoryEntry {
  return {
    id,
    state: "payed",
    method: "CARDRUBP2P",
    createdAt: {
      text: "2026-11-05 12:00:00",
      zone: "Europe/Moscow",
      epochSeconds: at("2026-11-05T09:00:00Z"),
    },
    amount: { value: paid, currency: "RUB" },
    rub: paid,
    details: {
      type: "purchase",
      url: null,
      description: null,
      extra: null,
      paid: { value: paid, currency: "RUB" },
      commission: null,
    },
  };
}

describe("refunds in an export", () => {
  it("sums each invoice's paid refunds exactly, in its currency, and counts only the period's on the line", async () => {
    const refunds = await exportRefunds(async () => REFUNDS, SPAN);
    expect(refundedOf(refunds, "inv_a")).toEqual({ value: "500.1", currency: "RUB" });
    expect(refundedOf(refunds, "inv_b")).toEqual({ value: "12.5", currency: "USD" });
    expect(refundedOf(refunds, "inv_c")).toBeNull();
    expect(refundsNote(refunds)).toEqual({ count: 2, totals: [{ currency: "RUB", amount: "500.1" }] });
  });

  it("writes the refunded amount and currency in their own columns, the paid amount left as paid", () => {
    const refunds = { unread: false as const, byInvoice: new Map(), inPeriod: { count: 0, totals: [] } };
    refunds.byInvoice.set("inv_a", { amount: "500.1", currency: "RUB" });
    const cells = textCells(exportRow(entry("inv_a", "1500.00"), refundedOf(refunds, "inv_a")));
    const column = (name: string) => cells[EXPORT_COLUMNS.indexOf(name as (typeof EXPORT_COLUMNS)[number])];
    expect(column("paid_amount")).toBe("1500.00");
    expect(column("refunded_amount")).toBe("500.1");
    expect(column("refunded_currency")).toBe("RUB");
    const none = textCells(exportRow(entry("inv_c", "10")));
    expect(none.slice(-2)).toEqual(["", ""]);
  });

  it("puts the refunded amount in xlsx as a number cell of its own column", async () => {
    const file = exportFile("xlsx", { sheetName: "Invoices", zone: "Europe/Moscow" });
    file.add(exportRow(entry("inv_a", "1500.00"), { value: "500.1", currency: "RUB" }));
    const written = await file.finish();
    try {
      const parts = unzipSync(new Uint8Array(readFileSync(written.path)));
      const sheet = strFromU8(parts["xl/worksheets/sheet1.xml"] ?? new Uint8Array());
      expect(sheet).toContain(">refunded_amount</t>");
      expect(sheet).toContain('<c r="P2"><v>500.1</v></c>');
      expect(sheet).toContain('<c r="Q2" t="inlineStr"><is><t xml:space="preserve">RUB</t>');
    } finally {
      written.dispose();
    }
  });

  it("says when the refunds could not be read, rather than an empty column passing for none", async () => {
    const refunds = await exportRefunds(async () => {
      throw new Error("store down");
    }, SPAN);
    expect(refundedOf(refunds, "inv_a")).toBeNull();
    const file = {
      title: "Invoices in November 2026",
      invoices: 3,
      paid: "1,500.00 RUB",
      zone: "Europe/Moscow",
      read: { unreadable: 0, daysLeftOut: [] },
    };
    expect(fileComment("en", { ...file, refunds: refundsNote(refunds) })).toContain(
      "could not read the refunds paid out just now, so the `refunded_amount` column is empty",
    );
    expect(fileComment("ru", { ...file, refunds: "unread" })).toContain("столбец `refunded_amount` пуст");
    // No way to read them given: nothing said, nothing shown.
    expect(refundsNote(await exportRefunds(undefined, SPAN))).toEqual({ count: 0, totals: [] });
  });

  it("the file's line gives the period's refunds apart from the paid total, in both languages", () => {
    const file = {
      title: "Invoices in November 2026",
      invoices: 3,
      paid: "1,500.00 RUB",
      zone: "Europe/Moscow",
      read: { unreadable: 0, daysLeftOut: [] },
      refunds: { count: 2, totals: [{ currency: "RUB", amount: "500.1" }] },
    };
    const en = fileComment("en", file);
    expect(en).toContain("3 invoices, 1,500.00 RUB paid");
    expect(en).toContain("Refunds paid out in the period: 2 refunds: 500.10 RUB");
    const ru = fileComment("ru", file);
    expect(ru).toContain("оплачено 1,500.00 RUB");
    expect(ru).toContain("Выплаченные за период возвраты: 2 возврата: 500,10");
    expect(fileComment("en", { ...file, refunds: { count: 0, totals: [] } })).not.toContain("Refunds");
  });
});
