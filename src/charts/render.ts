import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { renderAsync } from "@resvg/resvg-js";
import { CHART_FONT, CHART_WIDTH } from "./paid-chart.js";

/**
 * DejaVu Sans (Latin and Cyrillic; the Bitstream Vera licence lets it ship with the app), loaded from
 * the dejavu-fonts-ttf package by path: the Docker image has no fonts, and system fonts are never
 * looked at, so a chart looks the same on every machine.
 */
const fontDir = join(dirname(createRequire(import.meta.url).resolve("dejavu-fonts-ttf/package.json")), "ttf");
export const CHART_FONT_FILES = [join(fontDir, "DejaVuSans.ttf"), join(fontDir, "DejaVuSans-Bold.ttf")];

/** An SVG chart as PNG bytes, rendered by resvg off the event loop (libuv's thread pool). */
export async function renderPng(svg: string): Promise<Buffer> {
  const image = await renderAsync(svg, {
    fitTo: { mode: "width", value: CHART_WIDTH },
    font: { fontFiles: CHART_FONT_FILES, loadSystemFonts: false, defaultFontFamily: CHART_FONT },
    background: "#ffffff",
  });
  return image.asPng();
}
