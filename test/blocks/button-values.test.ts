import { describe, expect, it } from "vitest";
import {
  disconnectButton,
  invoiceButton,
  listPageButton,
  paymethodsPageButton,
  stopButton,
  unpaidPageButton,
} from "../../src/blocks/button-values.js";

describe("button value codecs: one schema beside its writer", () => {
  it("reads back exactly what it wrote, for every kind of button", () => {
    const cases = [
      [
        invoiceButton,
        { t: "T0SANDBOX", id: "715308958_rPwTzvsvCm", s: "notpayed", by: "U0ALEX", en: "1500 USD" },
      ],
      [stopButton, { t: "T0SANDBOX", id: "715308958_rPwTzvsvCm" }],
      [paymethodsPageButton, { f: "btc", p: 2 }],
      [listPageButton, { t: "T0SANDBOX", f: "paid", p: 3 }],
      [disconnectButton, { t: "T0SANDBOX" }],
      [unpaidPageButton, { t: "T0SANDBOX", p: 2, d: "2026-10", c: "Acme <Ltd>", r: "shop2" }],
    ] as const;
    for (const [codec, value] of cases) {
      const written = (codec.write as (v: unknown) => string)(value);
      expect(written.length).toBeLessThanOrEqual(2000);
      expect(codec.schema.parse(JSON.parse(written))).toEqual(value);
    }
  });

  it("keeps text from the service inert: <, > and & are written as \\u escapes", () => {
    const written = invoiceButton.write({ t: "T0SANDBOX", id: "715308958_rPwTzvsvCm", s: "<!channel> & co" });
    expect(written).not.toMatch(/[<>&]/);
    expect(invoiceButton.schema.parse(JSON.parse(written)).s).toBe("<!channel> & co");
  });

  it("refuses what no builder writes", () => {
    expect(invoiceButton.schema.safeParse({ t: "T0", id: "../etc/passwd", s: "x" }).success).toBe(false);
    expect(listPageButton.schema.safeParse({ t: "T0", f: "everything", p: 1 }).success).toBe(false);
    expect(paymethodsPageButton.schema.safeParse({ f: "btc", p: 0 }).success).toBe(false);
    expect(unpaidPageButton.schema.safeParse({ t: "T0", p: 1, d: "forever" }).success).toBe(false);
  });
});
