/**
 * Control characters (C0 but newline, DEL) and the bidirectional marks, embeddings, overrides and
 * isolates (U+200E/F, U+202A–E, U+2066–9): text from outside could reorder what a reader sees
 * ("‮gpj.exe" shows as "exe.jpg") or hide parts of it. One home: every escape and every cut
 * removes them, so mrkdwn and plain_text alike never carry them.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const INVISIBLE_CONTROLS = /[\u0000-\u0009\u000B-\u001F\u007F\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

export function stripControls(text: string): string {
  return text.replace(INVISIBLE_CONTROLS, "");
}

/**
 * Escapes text that came from outside (the service, the user) for Slack mrkdwn, so `<!channel>`,
 * `<@U123>` or `<https://x|label>` inside it stay text instead of becoming mentions and links.
 */
export function escapeMrkdwn(text: string): string {
  return stripControls(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Cuts text (controls removed) to at most `limit` characters, ending in "…" when cut, never splitting a surrogate pair
 * or an escape entity (&amp; &lt; &gt;) that escapeMrkdwn produced.
 */
export function truncate(raw: string, limit: number): string {
  const text = stripControls(raw);
  if (text.length <= limit) return text;
  if (limit < 1) return "";
  let cut = text.slice(0, limit - 1);
  const last = cut.charCodeAt(cut.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  // Entities are at most 5 characters ("&amp;"): a cut one shows as "&am" in Slack.
  const amp = cut.lastIndexOf("&");
  if (amp !== -1 && amp >= cut.length - 4 && !cut.slice(amp).includes(";")) cut = cut.slice(0, amp);
  return `${cut}…`;
}

/** Escaped and cut to the limit, in that order, so the cut never breaks an entity. */
export function safeText(text: string, limit: number): string {
  return truncate(escapeMrkdwn(text), limit);
}

/** Text inside inline code: backticks would end it early, so they are swapped for a similar mark. */
export function inlineCode(text: string): string {
  return `\`${escapeMrkdwn(text).replace(/`/g, "ˋ")}\``;
}
