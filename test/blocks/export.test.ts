import { describe, expect, it } from "vitest";
import { exportProgressMessage } from "../../src/blocks/export.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

describe("the export's progress message", () => {
  const progress = (lang: "en" | "ru", title: string) =>
    exportProgressMessage({
      teamId: "T1",
      jobId: "job1",
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
});
