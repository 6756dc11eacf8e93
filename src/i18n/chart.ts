import type { Lang } from "./lang.js";

/** The chart's own words: its title, legend and what an empty period shows. */
export type ChartText = {
  title: (unit: "hour" | "day", currency: string) => string;
  current: string;
  previous: string;
  empty: string;
  /** Under the legend when a bar is cut because it is far taller than the rest. */
  cut: string;
};

const en: ChartText = {
  title: (unit, currency) => `Paid per ${unit}, ${currency}`,
  current: "This period",
  previous: "Period before",
  empty: "No payments in this period",
  cut: "A cut bar is far taller: its amount is above it",
};

const ru: ChartText = {
  title: (unit, currency) => `Оплачено ${unit === "hour" ? "по часам" : "по дням"}, ${currency}`,
  current: "Этот период",
  previous: "Прошлый период",
  empty: "За этот период платежей нет",
  cut: "Столбец с разрывом намного выше: сумма над ним",
};

export const CHART_TEXT: Record<Lang, ChartText> = { en, ru };
