import Big from "big.js";
import { describe, expect, it } from "vitest";
import { paidChartSvg, tickLabel, tickStep } from "../../src/charts/paid-chart.js";
import { renderPng } from "../../src/charts/render.js";

const days = Array.from({ length: 7 }, (_, index) => `2${index}.11`);

describe("the paid chart", () => {
  it("picks round ticks, exact", () => {
    expect(tickStep(new Big("208000")).toFixed()).toBe("50000");
    expect(tickStep(new Big("0.3")).toFixed()).toBe("0.1");
    expect(tickStep(new Big("999")).toFixed()).toBe("200");
    expect(tickStep(new Big("0")).toFixed()).toBe("1");
  });

  it("writes ticks past ten thousand short, in the reader's language", () => {
    expect(tickLabel(new Big("2500"), "en")).toBe("2,500");
    expect(tickLabel(new Big("12500000"), "en")).toBe("12.5M");
    expect(tickLabel(new Big("250000"), "ru")).toBe("250\u00a0тыс.");
  });

  it("draws bars for this period, a line for the one before, Russian labels and escaped text", () => {
    const svg = paidChartSvg({
      subtitle: "Счета <за> 7 дней & ещё",
      unit: "day",
      currency: "RUB",
      labels: days,
      current: ["100", "0", "2500.5", "0.3", "1000", "0", "50"],
      previous: ["10", "20", "30", "40", "50", "60", "70", "80"],
      lang: "ru",
    });
    expect(svg).toContain("Оплачено по дням, RUB");
    expect(svg).toContain("Счета &lt;за&gt; 7 дней &amp; ещё");
    expect(svg.match(/<rect [^>]*rx="3"/g)).toHaveLength(5);
    expect(svg).toContain("<polyline");
    // The top tick, written as Russian writes numbers.
    expect(svg).toContain(">3\u00a0000<");
    expect(svg).toContain(">21.11<");
  });

  it("says so when nothing was paid", () => {
    const svg = paidChartSvg({
      subtitle: "Invoices today",
      unit: "hour",
      currency: "RUB",
      labels: ["00", "01"],
      current: ["0", "0"],
      previous: ["0", "0"],
      lang: "en",
    });
    expect(svg).toContain("No payments in this period");
    expect(svg).toContain("Paid per hour, RUB");
  });

  it("renders a 1200 x 600 PNG with the shipped font (no system fonts)", async () => {
    const png = await renderPng(
      paidChartSvg({
        subtitle: "Счета за 7 дней",
        unit: "day",
        currency: "RUB",
        labels: days,
        current: ["1", "2", "3", "4", "5", "6", "7"],
        previous: [],
        lang: "ru",
      }),
    );
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(600);
  });
});
