import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime } from "../../sandbox/fake-payments.js";
import { sampleHistory } from "../../sandbox/payments-history.js";
import { Stack } from "../../sandbox/stack.js";

/** RFC 4180 read back by hand: quoted fields with doubled quotes, CRLF between records. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      rows.push([...row, field]);
      row = [];
      field = "";
      i += 1;
    } else field += char;
  }
  return rows;
}

describe("one odd history entry never breaks a period", () => {
  let stack: Stack;
  const now = new Date();
  const history = sampleHistory({ now, days: 10, perDay: 6, seed: 3 });
  // A paid invoice of yesterday whose method name is longer than any real one.
  const longMethod = `CARD_${"X".repeat(300)}`;
  history.push({
    id: "799100000_LongMethod",
    state: "payed",
    method: longMethod,
    currency: "RUB",
    amount: "99999.99",
    createdAt: moscowTime(new Date(now.getTime() - 86_400_000)),
    expiredAt: moscowTime(new Date(now.getTime() - 86_400_000 + 3_600_000)),
  });
  beforeAll(async () => {
    stack = await Stack.start({ fake: { invoices: history } });
    stack.slack.users.U0ADMIN = { is_admin: true, tz: "Europe/Moscow" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("the report over its day counts it, asked once and again from the kept history", async () => {
    for (let ask = 0; ask < 2; ask += 1) {
      const { reply } = await stack.ask("summary 7d", { userId: "U0ADMIN" });
      const text = JSON.stringify(reply.body);
      expect(text).not.toContain("Something went wrong");
      expect(text).toContain("*Paid total*");
      // The largest payment of the week, with its method as kept (cut, and marked so).
      expect(text).toContain("`799100000_LongMethod` *99,999.99 RUB*");
      expect(text).toContain("CARD_XXX");
      expect(text).not.toContain(longMethod);
    }
  });

  it("the export over its day has its row, the method cut visibly to what is kept", async () => {
    const shared = stack.slack.files.shared().length;
    const { reply } = await stack.ask("export 7d", { userId: "U0ADMIN" });
    expect(JSON.stringify(reply.body)).toContain("Exporting invoices");
    const file = (await stack.slack.files.waitFor(shared + 1))[shared];
    expect(file?.filename).toMatch(/\.csv$/);
    const rows = csvRows((file?.bytes ?? Buffer.alloc(0)).toString("utf8").slice(1));
    const row = rows.find((r) => r[0] === "799100000_LongMethod");
    expect(row?.[4]).toBe("99999.99");
    expect(row?.[11]?.startsWith("CARD_XXX")).toBe(true);
    expect(row?.[11]?.endsWith("…")).toBe(true);
    expect(row?.[11]).toHaveLength(100);
  });
});
