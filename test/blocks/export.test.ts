import { describe, expect, it } from "vitest";
import { exportProgressMessage, fileComment } from "../../src/blocks/export.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

describe("the export's progress message", () => {
  const progress = (lang: "en" | "ru", title: string) =>
    exportProgressMessage({
      teamId: "T1",
      jobId: "job1",
      userId: "U0ASKER",
      title,
      format: "CSV",
      pages: 21,
      invoices: 2100,
      lang,
    });

  it("names the period inside its sentence, counts pages and invoices, and has Cancel", () => {
    const en = progress("en", "Invoices in October 2026");
    expectWithinBlockKitLimits(en);
    expect(en.text).toBe(":hourglass_flowing_sand: Exporting invoices in October 2026 as CSV.");
    const body = JSON.stringify(en.blocks);
    expect(body).toContain("21 history pages");
    expect(body).toContain("2,100 invoices");
    expect(body).toContain('"action_id":"invoice_export_cancel"');
    const ru = progress("ru", "Счета за октябрь 2026");
    expect(ru.text).toBe(":hourglass_flowing_sand: Выгружаю счета за октябрь 2026 в CSV.");
    expect(JSON.stringify(ru.blocks)).toContain("2\u00a0100 счетов");
  });

  it("the file's line says what is not in the file: unreadable entries, kept days left out", () => {
    const file = {
      title: "Invoices in the last 7 days",
      invoices: 12,
      paid: "1,500.00 RUB",
      zone: "Europe/Moscow",
    };
    expect(fileComment("en", { ...file, read: { unreadable: 0, daysLeftOut: [] } })).not.toContain(
      ":warning:",
    );
    const en = fileComment("en", { ...file, read: { unreadable: 2, daysLeftOut: ["2026-11-24"] } });
    expect(en).toContain("Invoices in the last 7 days: 12 invoices, 1,500.00 RUB paid");
    expect(en).toContain("The invoices Kassa keeps for 2026-11-24 (days in UTC) could not be read");
    expect(en).toContain("2 entries of the history could not be read and are not in the file.");
    const ru = fileComment("ru", { ...file, read: { unreadable: 1, daysLeftOut: ["2026-11-24"] } });
    expect(ru).toContain("Счета, которые Kassa хранит за 2026-11-24 (дни по UTC)");
    expect(ru).toContain("1 запись истории не удалось прочитать, их нет в файле.");
  });
});
