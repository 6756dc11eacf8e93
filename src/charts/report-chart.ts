import type { Lang } from "../i18n/lang.js";
import { isMonth } from "../reports/periods.js";
import type { Report } from "../reports/report.js";
import { type PaidChartInput, paidChartSvg } from "./paid-chart.js";
import { renderPng } from "./render.js";

const MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A bucket's label as the language writes it: hours "09", days "Nov 20" / "20.11", a month's days "20". */
function label(raw: string, report: Report, lang: Lang): string {
  if (report.buckets.unit === "hour" || isMonth(report.period)) return raw;
  const [month, day] = raw.split("-") as [string, string];
  return lang === "ru" ? `${day}.${month}` : `${MONTHS_EN[Number(month) - 1]} ${Number(day)}`;
}

/** What the report's chart shows: paid roubles per bucket, this period and the one before. */
export function reportChartInput(report: Report, subtitle: string, lang: Lang): PaidChartInput {
  return {
    subtitle,
    unit: report.buckets.unit,
    currency: "RUB",
    labels: report.buckets.labels.map((raw) => label(raw, report, lang)),
    current: report.current.perBucket,
    previous: report.earlier.perBucket,
    lang,
  };
}

/** The report's chart as PNG (1200 x 600). */
export function reportChartPng(report: Report, subtitle: string, lang: Lang): Promise<Buffer> {
  return renderPng(paidChartSvg(reportChartInput(report, subtitle, lang)));
}
