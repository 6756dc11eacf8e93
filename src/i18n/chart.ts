import type { Lang } from "./lang.js";

/** The chart's own words: its title, legend and what an empty period shows. */
export type ChartText = {
  title: (unit: "hour" | "day", currency: string) => string;
  current: string;
  previous: string;
  empty: string;
};

const en: ChartText = {
  title: (unit, currency) => `Paid per ${unit}, ${currency}`,
  current: "This period",
  previous: "Period before",
  empty: "No payments in this period",
};

const ru: ChartText = {
  title: (unit, currency) => `Оплачено ${unit === "hour" ? "по часам" : "по дням"}, ${currency}`,
  current: "Этот период",
  previous: "Прошлый период",
  empty: "За этот период платежей нет",
};

export const CHART_TEXT: Record<Lang, ChartText> = { en, ru };
