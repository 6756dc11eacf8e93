import { readFileSync } from "node:fs";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  EXPORT_COLUMNS,
  type ExportRow,
  exportRow,
  inertText,
  isoWithOffset,
  textCells,
} from "../../src/exports/columns.js";
import { csvField, csvRecord, UTF8_BOM } from "../../src/exports/csv.js";
import { exportFile } from "../../src/exports/file.js";
import { numberCell } from "../../src/exports/xlsx.js";
import { computes, readCsv } from "../support/csv.js";

const MOSCOW = "Europe/Moscow";

/** Text written to attack a spreadsheet: a formula first, after a `;`, after a line break, after a quote. */
const HOSTILE = [
  "=cmd|' /C calc'!A0",
  "x;=cmd|' /C calc'!A0",
  "+7 999",
  "-5% off",
  "@SUM(1+1)",
  "\t=1+1",
  "\r=1+1",
  'say;"=1+1"',
  "Order:\n- item 1\r\n=2+2",
  "a,b;@c",
];

function row(overrides: Partial<ExportRow> = {}): ExportRow {
  return {
    id: "715308958_rPwTzvsvCm",
    // 14:30 in Moscow (UTC+3) is 11:30 UTC.
    createdAt: {
      text: "2026-11-26 14:30:00",
      zone: MOSCOW,
      epochSeconds: Date.UTC(2026, 10, 26, 11, 30) / 1000,
    },
    state: "payed",
    type: "purchase",
    amount: { value: "1500.50", currency: "RUB" },
    rub: "1500.50",
    paid: { value: "0.00012345", currency: "BTC" },
    commission: { value: "45.015", currency: "RUB" },
    method: "CARDRUBP2P",
    description: 'Заказ №7, "подарок"',
    extra: null,
    link: "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm",
    refunded: null,
    ...overrides,
  };
}

describe("export rows", () => {
  it("write extra without Kassa's marker", () => {
    const entry = (extra: string | null) => ({
      id: "715308958_rPwTzvsvCm",
      state: "notpayed",
      method: null,
      createdAt: row().createdAt,
      amount: { value: "10", currency: "RUB" },
      rub: "10",
      details: { type: "purchase", url: null, description: null, extra, paid: null, commission: null },
    });
    expect(exportRow(entry("Order 5 kassa:abcdefgh23")).extra).toBe("Order 5");
    expect(exportRow(entry("kassa:abcdefgh23")).extra).toBeNull();
    expect(exportRow(entry("Order 5")).extra).toBe("Order 5");
  });
});

describe("CSV (RFC 4180)", () => {
  it("quotes only fields with a comma, a semicolon, a quote or a line break, doubling the quotes", () => {
    expect(csvField("plain text")).toBe("plain text");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField("a;b")).toBe('"a;b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
    expect(csvRecord(["a", "", "c,d"])).toBe('a,,"c,d"\r\n');
  });

  it("writes amounts exactly as the service gave them, the time with its offset, text that cannot compute", () => {
    const cells = textCells(row({ description: '=HYPERLINK("x")', extra: "-5% off" }));
    expect(cells).toHaveLength(EXPORT_COLUMNS.length);
    expect(cells.slice(0, 11)).toEqual([
      "715308958_rPwTzvsvCm",
      "2026-11-26T14:30:00+03:00",
      "payed",
      "purchase",
      "1500.50",
      "RUB",
      "1500.50",
      "0.00012345",
      "BTC",
      "45.015",
      "RUB",
    ]);
    expect(cells[12]).toBe('\'=HYPERLINK("x")');
    expect(cells[13]).toBe("'-5% off");
    expect(inertText("+7 999")).toBe("'+7 999");
    expect(inertText("@user")).toBe("'@user");
    expect(inertText("ordinary")).toBe("ordinary");
  });

  it("no cell computes, whatever column it is in, read with `,` or with `;` (Russian and German Excel)", async () => {
    const file = exportFile("csv", { sheetName: "Invoices", zone: MOSCOW });
    for (const [index, text] of HOSTILE.entries()) {
      file.add(
        row({
          id: text,
          state: text,
          type: text,
          amount: { value: "-5.00", currency: text },
          rub: "-5.00",
          paid: { value: index % 2 ? text : "-0.5", currency: text },
          commission: { value: "-45.015", currency: text },
          method: text,
          description: text,
          extra: text,
          link: text,
        }),
      );
    }
    const written = await file.finish();
    try {
      const text = readFileSync(written.path, "utf8").slice(1);
      for (const separator of [",", ";"]) {
        const cells = readCsv(text, separator).flat();
        expect(cells.length).toBeGreaterThan(HOSTILE.length);
        expect(cells.filter(computes), separator).toEqual([]);
      }
      // Read as written (with `,`): the amounts stay numbers, negative ones too; the text keeps every character.
      const rows = readCsv(text, ",").slice(1);
      expect(rows.map((cells) => cells[4])).toEqual(HOSTILE.map(() => "-5.00"));
      expect(rows[1]?.[12]).toBe("x;'=cmd|' /C calc'!A0");
      expect(rows[8]?.[12]).toBe("Order:\n'- item 1\r\n'=2+2");
      expect(rows[0]?.[0]).toBe("'=cmd|' /C calc'!A0");
    } finally {
      written.dispose();
    }
  });

  it("gives each time its own zone's offset at that moment, half hours and west of Greenwich included", () => {
    const at = (text: string, utc: number, zone: string) =>
      isoWithOffset({ text, zone, epochSeconds: utc / 1000 });
    expect(at("2026-01-15 09:00:00", Date.UTC(2026, 0, 15, 14), "America/New_York")).toBe(
      "2026-01-15T09:00:00-05:00",
    );
    expect(at("2026-07-15 10:00:00", Date.UTC(2026, 6, 15, 14), "America/New_York")).toBe(
      "2026-07-15T10:00:00-04:00",
    );
    expect(at("2026-03-01 17:30:00", Date.UTC(2026, 2, 1, 12), "Asia/Kolkata")).toBe(
      "2026-03-01T17:30:00+05:30",
    );
    expect(at("2026-03-01 12:00:00", Date.UTC(2026, 2, 1, 12), "UTC")).toBe("2026-03-01T12:00:00+00:00");
  });

  it("makes a file that starts with a byte order mark and a header row, one CRLF record per invoice", async () => {
    const file = exportFile("csv", { sheetName: "Invoices", zone: MOSCOW });
    for (let index = 0; index < 3000; index += 1) file.add(row({ id: `id_${index}` }));
    const written = await file.finish();
    try {
      const text = readFileSync(written.path, "utf8");
      expect(written.length).toBe(Buffer.byteLength(text));
      expect(text.startsWith(UTF8_BOM)).toBe(true);
      const records = text.slice(1).split("\r\n");
      expect(records[0]).toBe(EXPORT_COLUMNS.join(","));
      expect(records).toHaveLength(3000 + 2); // the header, the rows, and the empty string after the last CRLF
      expect(records[1]).toBe(
        'id_0,2026-11-26T14:30:00+03:00,payed,purchase,1500.50,RUB,1500.50,0.00012345,BTC,45.015,RUB,CARDRUBP2P,"Заказ №7, ""подарок""",,https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm,,',
      );
      expect(records[3000]?.startsWith("id_2999,")).toBe(true);
    } finally {
      written.dispose();
    }
  });
});

describe("xlsx", () => {
  it("makes an amount a number only when Excel shows it exactly as written; else text, never rounded", () => {
    expect(numberCell("1500.50")).toEqual({ attributes: "", body: "<v>1500.50</v>" });
    expect(numberCell("-45.015")).toEqual({ attributes: "", body: "<v>-45.015</v>" });
    expect(numberCell("0.000000012345")).toEqual({ attributes: "", body: "<v>0.000000012345</v>" });
    expect(numberCell("123456789012.345")).toEqual({ attributes: "", body: "<v>123456789012.345</v>" });
    // 16 significant digits: a double would show 1234567890123.457.
    expect(numberCell("1234567890123.4567")?.attributes).toBe(' t="inlineStr"');
    expect(numberCell("1234567890123.4567")?.body).toContain(">1234567890123.4567<");
    expect(numberCell("0.12345678901234567")?.attributes).toBe(' t="inlineStr"');
    // Not a plain decimal: kept as the service wrote it.
    expect(numberCell("1e-7")?.body).toContain(">1e-7<");
    expect(numberCell("")).toBeNull();
    expect(numberCell(null)).toBeNull();
  });

  it("writes a workbook whose sheet holds typed cells, escaped text and a frozen header", async () => {
    const file = exportFile("xlsx", { sheetName: "Счета", zone: MOSCOW });
    file.add(row({ description: "<b>Tom & Jerry</b>\u0007", extra: "=1+1", method: "@SUM(A1)" }));
    file.add(row({ id: "second", amount: null, rub: null, paid: null, commission: null, type: null }));
    const written = await file.finish();
    try {
      const parts = unzipSync(new Uint8Array(readFileSync(written.path)));
      expect(Object.keys(parts).sort()).toEqual([
        "[Content_Types].xml",
        "_rels/.rels",
        "xl/_rels/workbook.xml.rels",
        "xl/styles.xml",
        "xl/workbook.xml",
        "xl/worksheets/sheet1.xml",
      ]);
      const workbook = strFromU8(parts["xl/workbook.xml"] ?? new Uint8Array());
      expect(workbook).toContain('<sheet name="Счета"');
      // The header's filter covers the header and both rows, named as Excel names it.
      expect(workbook).toContain(
        `<definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'Счета'!$A$1:$Q$3</definedName>`,
      );
      expect(strFromU8(parts["xl/styles.xml"] ?? new Uint8Array())).toContain(
        '<cellStyle name="Normal" xfId="0" builtinId="0"/>',
      );
      const sheet = strFromU8(parts["xl/worksheets/sheet1.xml"] ?? new Uint8Array());
      expect(sheet).toContain('state="frozen"');
      expect(sheet).toMatch(/<\/sheetData><autoFilter ref="A1:Q3"\/><\/worksheet>$/);
      expect(sheet).toContain(`<t xml:space="preserve">created_at (${MOSCOW})</t>`);
      // 2026-11-26 14:30 as an Excel serial: days since 1899-12-30 and the fraction of the day.
      const serial = Date.UTC(2026, 10, 26, 14, 30) / 86_400_000 + 25_569;
      expect(sheet).toContain(`<c r="B2" s="2"><v>${serial}</v></c>`);
      expect(sheet).toContain('<c r="E2"><v>1500.50</v></c>');
      expect(sheet).toContain(
        '<c r="H2"><v>0.00012345</v></c><c r="I2" t="inlineStr"><is><t xml:space="preserve">BTC</t>',
      );
      expect(sheet).toContain("&lt;b&gt;Tom &amp; Jerry&lt;/b&gt;</t>");
      expect(sheet).not.toContain("\u0007");
      // Inline strings are never formulas: the text is kept exactly, with no `'` in front.
      expect(sheet).toContain('<c r="N2" t="inlineStr"><is><t xml:space="preserve">=1+1</t></is></c>');
      expect(sheet).toContain('<c r="L2" t="inlineStr"><is><t xml:space="preserve">@SUM(A1)</t></is></c>');
      expect(sheet).not.toContain("<f>");
      // The second invoice has no amounts: its row has no cells for them, not zeros.
      const second = sheet.slice(sheet.indexOf('<row r="3">'));
      expect(second).not.toContain('r="E3"');
      expect(second).not.toContain('r="D3"');
      expect(second).toContain('r="O3"');
    } finally {
      written.dispose();
    }
  });
});
