import Big from "big.js";
import { describe, expect, it } from "vitest";
import {
  cutBars,
  labelCentres,
  type PaidChartInput,
  paidChartSvg,
  tickLabel,
  tickStep,
} from "../../src/charts/paid-chart.js";
import { renderPng } from "../../src/charts/render.js";

const days = Array.from({ length: 7 }, (_, index) => `2${index}.11`);

/** A week's chart in roubles; each test says what differs. */
const week = (input: Pick<PaidChartInput, "current" | "previous" | "lang"> & Partial<PaidChartInput>) =>
  paidChartSvg({
    subtitle: "Invoices in the last 7 days",
    unit: "day",
    currency: "RUB",
    labels: days,
    ...input,
  });

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
    const svg = week({
      subtitle: "Счета <за> 7 дней & ещё",
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

  it("cuts one or two bars far taller than the rest, never the period before, and writes their exact amounts", () => {
    const big = (values: string[]) => values.map((value) => new Big(value));
    const one = cutBars(big(["100", "120", "12536368.9", "90"]), big(["110", "130"]));
    expect([...one.cut]).toEqual([2]);
    expect(one.axisMax.toFixed()).toBe("130");
    const month = Array.from({ length: 30 }, (_, day) => String(90 + day));
    month[4] = "5400000";
    month[20] = "12536368.9";
    const two = cutBars(big(month), big([]));
    expect([...two.cut].sort((a, b) => a - b)).toEqual([4, 20]);
    expect(two.axisMax.toFixed()).toBe("119");
    // A week cuts one bar at most: two tall days of seven are the week's shape.
    expect(cutBars(big(["100", "5400000", "12536368.9", "90", "95", "80", "70"]), big([])).cut.size).toBe(0);
    // Three times is the line: 300 against 100 is drawn whole; the period before counts as the rest.
    expect(cutBars(big(["100", "300"]), big([])).cut.size).toBe(0);
    expect(cutBars(big(["100", "1000"]), big(["400"])).cut.size).toBe(0);
    // A tall bar over fewer than three others with money in them is drawn whole.
    expect(cutBars(big(["10", "0", "5000", "0", "20"]), big(["30"])).cut.size).toBe(0);

    const svg = week({
      current: ["100", "120", "12536368.9", "90", "0", "110", "95"],
      previous: ["80", "90", "100", "110", "120", "130", "140"],
      lang: "en",
    });
    expect(svg).toContain(">12,536,368.90 RUB<");
    expect(svg).toContain("A cut bar is far taller: its amount is above it");
    expect(svg.match(/stroke="#ffffff"/g)).toHaveLength(1);
    // The axis is scaled to the other days (top tick 150), not to 12.5 million.
    expect(svg).toContain(">150<");
    expect(svg).not.toContain(">14M<");
    const plain = week({
      current: ["100", "120", "250", "90", "0", "110", "95"],
      previous: [],
      lang: "ru",
    });
    expect(plain).not.toContain("разрыв");
    expect(plain).not.toContain('stroke="#ffffff"');
  });

  it("keeps the cut bars' amounts inside the picture and apart", () => {
    const text = "12,536,368.90 RUB";
    const [edge = 0] = labelCentres([{ centre: 1150, text }]);
    expect(edge + (text.length * 12.5) / 2).toBeLessThanOrEqual(1160);
    const [left = 0, right = 0] = labelCentres([
      { centre: 600, text: "5,400,000.00 RUB" },
      { centre: 636, text },
    ]);
    expect(right - left).toBeGreaterThanOrEqual(((16 + 17) * 12.5) / 2 + 16);
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
      week({
        subtitle: "Счета за 7 дней",
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
