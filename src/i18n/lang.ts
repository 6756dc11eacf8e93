import { z } from "zod";

/**
 * The languages Kassa writes in, one per workspace (Slack's own per-user locale never says "ru", so
 * the choice is the workspace's). Log lines, outcomes and the CLI stay English.
 */
export const LANGS = ["en", "ru"] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = "en";

export const langSchema = z.enum(LANGS);

/** Each language's name in itself, for the chooser and the status line. */
export const LANG_NAMES: Record<Lang, string> = { en: "English", ru: "Русский" };

/** BCP 47 tags for Intl. */
export const LOCALES: Record<Lang, string> = { en: "en-US", ru: "ru-RU" };

/** "ru", "RU", "russian", "русский" -> "ru"; anything else undefined. */
export function parseLang(text: string): Lang | undefined {
  const word = text.trim().toLowerCase();
  if (["en", "eng", "english", "английский"].includes(word)) return "en";
  if (["ru", "rus", "russian", "русский"].includes(word)) return "ru";
  return undefined;
}
