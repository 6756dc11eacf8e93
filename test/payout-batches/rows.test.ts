import { describe, expect, it } from "vitest";
import { BATCH_ROWS_MAX, readPastedBatch } from "../../src/payout-batches/rows.js";

describe("a batch's pasted rows", () => {
  it("reads a copy from a spreadsheet (tabs, a header), labels and wallets, amounts as people write them", () => {
    const pasted = [
      "Recipient\tAmount\tFee\tReference",
      "Acme Ltd\t10 000,50\tbalance\tINV-1",
      "",
      "cardrubp2p\t2200 7000 1234 5678\t1,500\trecipient\tINV-2",
      "Beta LLC\t700",
    ].join("\r\n");
    expect(readPastedBatch(pasted)).toEqual({
      ok: true,
      rows: [
        { line: 2, to: { label: "Acme Ltd" }, amount: "10000.50", feeFrom: "balance", reference: "INV-1" },
        {
          line: 4,
          to: { method: "CARDRUBP2P", wallet: "2200700012345678" },
          amount: "1500",
          feeFrom: "amount",
          reference: "INV-2",
        },
        { line: 5, to: { label: "Beta LLC" }, amount: "700", feeFrom: "balance", reference: "" },
      ],
    });
  });

  it("reads `;` and `,` separated text, quoted cells included", () => {
    expect(readPastedBatch('Acme Ltd;1500,50;amount;"Rent; October"')).toMatchObject({
      ok: true,
      rows: [{ amount: "1500.50", feeFrom: "amount", reference: "Rent; October" }],
    });
    expect(readPastedBatch('"Acme, Ltd",1500,,ref')).toMatchObject({
      ok: true,
      rows: [{ to: { label: "Acme, Ltd" }, amount: "1500", feeFrom: "balance", reference: "ref" }],
    });
  });

  it("says every line it cannot read, by its number, and guesses nothing", () => {
    const read = readPastedBatch(
      ["Acme Ltd\t10\tbalance", "Acme Ltd\tten\tbalance", "Acme\t10\tsomeone", "x"].join("\n"),
    );
    expect(read).toEqual({
      ok: false,
      problems: [
        { kind: "amount", line: 2, why: "not_a_number" },
        { kind: "fee", line: 3, written: "someone" },
        { kind: "columns", line: 4 },
      ],
    });
    expect(readPastedBatch("Acme\t1.000,50\tbalance")).toMatchObject({
      ok: false,
      problems: [{ kind: "amount", why: "ambiguous" }],
    });
    expect(readPastedBatch("  \n")).toEqual({ ok: false, problems: [{ kind: "empty" }] });
  });

  it("takes at most 50 rows", () => {
    const rows = Array.from({ length: BATCH_ROWS_MAX + 1 }, (_, index) => `Acme\t${index + 1}\tbalance`);
    expect(readPastedBatch(rows.join("\n"))).toEqual({
      ok: false,
      problems: [{ kind: "too_many", rows: 51 }],
    });
    expect(readPastedBatch(rows.slice(1).join("\n"))).toMatchObject({ ok: true });
  });
});
