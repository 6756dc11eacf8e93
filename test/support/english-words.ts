/**
 * The English words left in what a person reads in a Slack message: every `text` in it (blocks,
 * buttons, the notification text), after taking out what is no language: inline code, Slack tokens
 * (mentions, links, channel names; a date token keeps its fallback text, which is Kassa's), slash
 * commands with their arguments, emoji
 * names, URLs, ids and codes (anything with a digit or underscore), currency codes and other
 * all-capitals words, and the names in `NAMES`. A Russian reply must leave none. Not "Home": Slack's
 * Russian interface calls App Home's tab «Главная», and a Russian reply names it so.
 */
const NAMES = new Set(["Kassa", "Slack", "CrystalPay", "Europe", "Moscow", "UTC", "Bitcoin", "Ethereum"]);

function texts(value: unknown, into: string[]): string[] {
  if (Array.isArray(value)) for (const item of value) texts(item, into);
  else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "text" && typeof inner === "string") into.push(inner);
      else if (!["action_id", "block_id", "value", "url", "image_url", "callback_id"].includes(key))
        texts(inner, into);
    }
  }
  return into;
}

export function englishWords(message: unknown, names: readonly string[] = []): string[] {
  const allowed = new Set([...NAMES, ...names]);
  const words: string[] = [];
  for (const text of texts(message, [])) {
    const language = text
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
      .replace(/`[^`]*`/g, " ")
      .replace(/<!date\^[^|>]*\|([^>]*)>/g, " $1 ")
      .replace(/<[^>]*>/g, " ")
      .replace(/:[a-z0-9_+-]+:/g, " ")
      .replace(/https?:\/\/\S+/g, " ")
      // A slash command with its arguments, as typed (plain-text fallbacks cannot use code).
      .replace(/(^|[\s(])\/[a-z]+(?: [a-z0-9|[\]<>._&;-]+)*/g, " ")
      .replace(/[\w-]*\d[\w-]*/g, " ");
    for (const token of language.split(/[\s«»"'(),.;:!?—–·→/*_~]+/)) {
      if (!/[A-Za-z]/.test(token) || /^[A-Z0-9-]+$/.test(token)) continue;
      if (/^@/.test(token) || allowed.has(token)) continue;
      words.push(token);
    }
  }
  return words;
}

/** Cyrillic letters in what a person reads: an English reply must have none. */
export function russianLetters(message: unknown): string[] {
  return texts(message, []).flatMap((text) => text.match(/[А-Яа-яЁё]+/g) ?? []);
}
