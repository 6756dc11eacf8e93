import { formatAmount, formatDecimal } from "../blocks/format.js";
import { CHART_TEXT } from "../i18n/chart.js";
import { type Lang, LOCALES } from "../i18n/lang.js";
import { Big } from "../payments/decimal.js";

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

/** About how wide a bold 20 px label is per character, in SVG units (DejaVu Sans Bold). */
const LABEL_CHAR_WIDTH = 12.5;

/**
 * Where the cut bars' amount labels go (their centres): over their bars, kept inside the picture,
 * and two labels pushed apart when they would run into each other.
 */
export function labelCentres(labels: { centre: number; text: string }[]): number[] {
  const boxes = labels.map(({ centre, text }) => {
    const half = (text.length * LABEL_CHAR_WIDTH) / 2;
    return { centre: Math.min(Math.max(centre, 10 + half), PLOT.right - half), half };
  });
  const [left, right] = [...boxes].sort((a, b) => a.centre - b.centre);
  if (left && right) {
    const overlap = left.half + right.half + 16 - (right.centre - left.centre);
    if (overlap > 0) {
      // Pushed apart, then moved back inside together when that took one past an edge.
      const shift =
        Math.max(0, 10 - (left.centre - overlap / 2 - left.half)) -
        Math.max(0, right.centre + overlap / 2 + right.half - PLOT.right);
      left.centre += shift - overlap / 2;
      right.centre += shift + overlap / 2;
    }
  }
  return boxes.map((box) => box.centre);
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

/** A bar this many times the tallest of the rest is cut, so one large payment does not flatten the rest. */
const CUT_RATIO = 3;
/**
 * At most one bar is cut in a short chart and two in a long one (24 hours, a month): more than that
 * is the period's shape, not an exception, and the axis simply reaches the tallest.
 */
const maxCut = (buckets: number) => (buckets >= 20 ? 2 : 1);
/** Cutting needs a body to scale to: at least this many other bars with money in them. */
const MIN_BODY = 3;

/**
 * Which of this period's buckets are cut, and the value the axis is scaled to: the largest bar (or
 * two, in a long chart) when over three times everything else (the other bars and the period
 * before). The line of the period before is never cut: it would hide where it went.
 */
export function cutBars(values: Big[], before: Big[]): { cut: Set<number>; axisMax: Big } {
  const axisMaxOf = (excluded: Set<number>) =>
    [...values.filter((_, index) => !excluded.has(index)), ...before].reduce(
      (top, value) => (value.gt(top) ? value : top),
      new Big(0),
    );
  const byValue = values.map((value, index) => ({ value, index })).sort((a, b) => b.value.cmp(a.value));
  const paid = byValue.filter((bar) => bar.value.gt(0)).length;
  for (let count = 1; count <= maxCut(values.length) && paid - count >= MIN_BODY; count += 1) {
    const cut = new Set(byValue.slice(0, count).map((bar) => bar.index));
    const rest = axisMaxOf(cut);
    const smallestCut = byValue[count - 1]?.value ?? new Big(0);
    if (smallestCut.gt(rest.times(CUT_RATIO))) return { cut, axisMax: rest };
  }
  return { cut: new Set(), axisMax: axisMaxOf(new Set()) };
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
  const { cut, axisMax: max } = cutBars(values, before);
  const step = tickStep(max);
  const ticks = Math.max(1, Math.ceil(Number(max.div(step).toFixed(6))));
  const top = step.times(ticks);
  const height = PLOT.bottom - PLOT.top;
  const y = (value: Big) => PLOT.bottom - Number(value.div(top).toPrecision(8)) * height;
  const slot = (PLOT.right - PLOT.left) / Math.max(1, values.length);
  const parts: string[] = [
    ...headingParts(input, t),
    ...tickParts(step, ticks, y, input.lang),
    ...barParts(values, cut, slot, y, input),
  ];
  if (cut.size > 0)
    parts.push(
      `<text x="${PLOT.right}" y="84" font-size="19" text-anchor="end" fill="${COLORS.muted}">${escapeXml(t.cut)}</text>`,
    );
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

type ChartText = (typeof CHART_TEXT)[Lang];

/** The canvas, the title with its currency, the subtitle, and the legend top right. */
function headingParts(input: PaidChartInput, t: ChartText): string[] {
  const legendX = PLOT.right - 450;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CHART_WIDTH}" height="${CHART_HEIGHT}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" font-family="${CHART_FONT}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${PLOT.left}" y="48" font-size="30" font-weight="bold" fill="${COLORS.text}">${escapeXml(t.title(input.unit, input.currency))}</text>`,
    `<text x="${PLOT.left}" y="84" font-size="22" fill="${COLORS.muted}">${escapeXml(input.subtitle)}</text>`,
    `<rect x="${legendX}" y="32" width="22" height="22" fill="${COLORS.bar}"/>`,
    `<text x="${legendX + 32}" y="51" font-size="21" fill="${COLORS.text}">${escapeXml(t.current)}</text>`,
    `<line x1="${legendX + 200}" y1="43" x2="${legendX + 236}" y2="43" stroke="${COLORS.previous}" stroke-width="4"/>`,
    `<text x="${legendX + 246}" y="51" font-size="21" fill="${COLORS.text}">${escapeXml(t.previous)}</text>`,
  ];
}

/** The amount axis: a grid line and a label per round tick. */
function tickParts(step: Big, ticks: number, y: (value: Big) => number, lang: Lang): string[] {
  const parts: string[] = [];
  for (let index = 0; index <= ticks; index += 1) {
    const value = step.times(index);
    const at = y(value).toFixed(1);
    parts.push(
      `<line x1="${PLOT.left}" y1="${at}" x2="${PLOT.right}" y2="${at}" stroke="${COLORS.grid}" stroke-width="2"/>`,
      `<text x="${PLOT.left - 14}" y="${(Number(at) + 7).toFixed(1)}" font-size="20" text-anchor="end" fill="${COLORS.muted}">${escapeXml(tickLabel(value, lang))}</text>`,
    );
  }
  return parts;
}

/** This period's bars; a cut bar gets a zigzag near its top and its exact amount above the plot. */
function barParts(
  values: Big[],
  cut: Set<number>,
  slot: number,
  y: (value: Big) => number,
  input: PaidChartInput,
): string[] {
  const parts: string[] = [];
  const cutLabels: { centre: number; text: string }[] = [];
  values.forEach((value, index) => {
    if (value.lte(0)) return;
    const x = PLOT.left + index * slot + slot * 0.15;
    const width = slot * 0.7;
    const barTop = cut.has(index) ? PLOT.top - 8 : y(value);
    parts.push(
      `<rect x="${x.toFixed(1)}" y="${barTop.toFixed(1)}" width="${width.toFixed(1)}" height="${(PLOT.bottom - barTop).toFixed(1)}" rx="3" fill="${COLORS.bar}"/>`,
    );
    if (!cut.has(index)) return;
    // The cut: a white zigzag across the bar near its top; the exact amount goes above it.
    const breakAt = PLOT.top + 28;
    const zigzag = [0, 0.25, 0.5, 0.75, 1]
      .map(
        (share, point) =>
          `${(x - 3 + share * (width + 6)).toFixed(1)},${(breakAt + (point % 2 ? -6 : 6)).toFixed(1)}`,
      )
      .join(" ");
    parts.push(`<polyline points="${zigzag}" fill="none" stroke="#ffffff" stroke-width="7"/>`);
    cutLabels.push({
      centre: x + width / 2,
      text: formatAmount(value.toFixed(), input.currency, input.lang),
    });
  });
  labelCentres(cutLabels).forEach((centre, index) => {
    parts.push(
      `<text x="${centre.toFixed(1)}" y="${PLOT.top - 16}" font-size="20" font-weight="bold" text-anchor="middle" fill="${COLORS.text}">${escapeXml(cutLabels[index]?.text ?? "")}</text>`,
    );
  });
  return parts;
}
