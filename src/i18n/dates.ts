import { type Lang, LOCALES } from "./lang.js";

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The text a Slack date token falls back to (old clients, notifications), in the workspace's
 * language: "25 ноября 2026 г. в 10:00" in `zone`. Slack renders the token itself in each reader's
 * own Slack language and timezone; only this fallback is Kassa's.
 */
export function fallbackDate(lang: Lang, epochSeconds: number, zone: string): string {
  const key = `${lang}|${zone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(LOCALES[lang], {
      timeZone: zone,
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(key, formatter);
  }
  return formatter.format(new Date(epochSeconds * 1000));
}
