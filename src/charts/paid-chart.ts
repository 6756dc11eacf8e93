import Big from "big.js";
import { formatDecimal } from "../blocks/format.js";
import { CHART_TEXT } from "../i18n/chart.js";
import { type Lang, LOCALES } from "../i18n/lang.js";

/** The chart's size in SVG units; rendered 1:1, so 1200 x 600 pixels (phones show it sharp). */
export const CHART_WIDTH = 1200;
export const CHART_HEIGHT = 600;
export const CHART_FONT = "DejaVu Sans";

export type PaidChartInput = {
  /** The report's title ("Invoices in the last 30 days"), shown under the chart's own. */
  subtitle: string;
  unit: "hour" | "day";
  currency: string;
  /** One per bucket, already in the reader's language ("09", "20.11"). */
  labels: string[];
  /** Exact decimal strings, one per bucket; `previous` may be longer or shorter (months differ). */
  current: string[];
  previous: string[];
  lang: Lang;
};

const PLOT = { left: 120, right: CHART_WIDTH - 40, top: 130, bottom: CHART_HEIGHT - 70 };
const COLORS = { bar: "#1d4e5f", previous: "#9aa7ad", grid: "#e3e8ea", text: "#1f2a30", muted: "#5b6770" };

function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * An axis tick as the language writes it, short past ten thousand ("250K", "12.5M"; "250 тыс.",
 * "12,5 млн"): a round tick, so nothing is lost; amounts themselves are never abbreviated.
 */
export function tickLabel(value: Big, lang: Lang): string {
  if (value.lt(10_000)) return formatDecimal(value.toFixed(), lang);
  const compact = new Intl.NumberFormat(LOCALES[lang], { notation: "compact", maximumFractionDigits: 2 });
  // A round tick (a multiple of 1, 2, 2.5 or 5 times a power of ten) is a number exactly.
  return compact.format(Number(value.toFixed()));
}

/** A round step near max / 5 (1, 2, 2.5 or 5 times a power of ten), exact as a decimal string. */
export function tickStep(max: Big): Big {
  if (max.lte(0)) return new Big(1);
  const rough = max.div(5);
  const power = new Big(10).pow(Math.floor(Math.log10(Number(rough.toPrecision(15)))));
  for (const factor of ["1", "2", "2.5", "5", "10"]) {
    const step = power.times(factor);
    if (step.gte(rough)) return step;
  }
  return power.times(10);
}

/**
 * The paid total per bucket as an SVG bar chart: this period as bars, the period before as a faint
 * line over the same buckets, round ticks on the amount axis written as the language writes
 * numbers, and the currency in the title. Pure: text is escaped, amounts are exact until they
 * become pixel positions.
 */
export function paidChartSvg(input: PaidChartInput): string {
  const t = CHART_TEXT[input.lang];
  const values = input.current.map((value) => new Big(value));
  const before = input.previous.slice(0, values.length).map((value) => new Big(value));
  const max = [...values, ...before].reduce((top, value) => (value.gt(top) ? value : top), new Big(0));
  const step = tickStep(max);
  const ticks = Math.max(1, Math.ceil(Number(max.div(step).toFixed(6))));
  const top = step.times(ticks);
  const height = PLOT.bottom - PLOT.top;
  const y = (value: Big) => PLOT.bottom - Number(value.div(top).toPrecision(8)) * height;
  const slot = (PLOT.right - PLOT.left) / Math.max(1, values.length);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" font-family="${CHART_FONT}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${PLOT.left}" y="48" font-size="30" font-weight="bold" fill="${COLORS.text}">${escapeXml(t.title(input.unit, input.currency))}</text>`,
    `<text x="${PLOT.left}" y="84" font-size="22" fill="${COLORS.muted}">${escapeXml(input.subtitle)}</text>`,
  ];
  // Legend, top right.
  const legendX = PLOT.right - 450;
  parts.push(
    `<rect x="${legendX}" y="32" width="22" height="22" fill="${COLORS.bar}"/>`,
    `<text x="${legendX + 32}" y="51" font-size="21" fill="${COLORS.text}">${escapeXml(t.current)}</text>`,
    `<line x1="${legendX + 200}" y1="43" x2="${legendX + 236}" y2="43" stroke="${COLORS.previous}" stroke-width="4"/>`,
    `<text x="${legendX + 246}" y="51" font-size="21" fill="${COLORS.text}">${escapeXml(t.previous)}</text>`,
  );
  for (let index = 0; index <= ticks; index += 1) {
    const value = step.times(index);
    const at = y(value).toFixed(1);
    parts.push(
      `<line x1="${PLOT.left}" y1="${at}" x2="${PLOT.right}" y2="${at}" stroke="${COLORS.grid}" stroke-width="2"/>`,
      `<text x="${PLOT.left - 14}" y="${(Number(at) + 7).toFixed(1)}" font-size="20" text-anchor="end" fill="${COLORS.muted}">${escapeXml(tickLabel(value, input.lang))}</text>`,
    );
  }
  values.forEach((value, index) => {
    if (value.lte(0)) return;
    const x = PLOT.left + index * slot + slot * 0.15;
    const barTop = y(value);
    parts.push(
      `<rect x="${x.toFixed(1)}" y="${barTop.toFixed(1)}" width="${(slot * 0.7).toFixed(1)}" height="${(PLOT.bottom - barTop).toFixed(1)}" rx="3" fill="${COLORS.bar}"/>`,
    );
  });
  if (before.length > 1) {
    const points = before.map(
      (value, index) => `${(PLOT.left + (index + 0.5) * slot).toFixed(1)},${y(value).toFixed(1)}`,
    );
    parts.push(
      `<polyline points="${points.join(" ")}" fill="none" stroke="${COLORS.previous}" stroke-width="4" stroke-linejoin="round" stroke-opacity="0.9"/>`,
    );
  }
  // About 80 px per label, so "Nov 13" never runs into "Nov 14".
  const every = Math.ceil(values.length / Math.floor((PLOT.right - PLOT.left) / 80));
  input.labels.forEach((label, index) => {
    if (index % every !== 0) return;
    const x = PLOT.left + (index + 0.5) * slot;
    parts.push(
      `<text x="${x.toFixed(1)}" y="${PLOT.bottom + 34}" font-size="20" text-anchor="middle" fill="${COLORS.muted}">${escapeXml(label)}</text>`,
    );
  });
  if (max.eq(0))
    parts.push(
      `<text x="${(PLOT.left + PLOT.right) / 2}" y="${(PLOT.top + PLOT.bottom) / 2}" font-size="28" text-anchor="middle" fill="${COLORS.muted}">${escapeXml(t.empty)}</text>`,
    );
  parts.push(
    `<line x1="${PLOT.left}" y1="${PLOT.bottom}" x2="${PLOT.right}" y2="${PLOT.bottom}" stroke="${COLORS.muted}" stroke-width="2"/>`,
    "</svg>",
  );
  return parts.join("\n");
}
