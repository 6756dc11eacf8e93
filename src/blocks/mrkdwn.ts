/**
 * Escapes text that came from outside (the service, the user) for Slack mrkdwn, so `<!channel>`,
 * `<@U123>` or `<https://x|label>` inside it stay text instead of becoming mentions and links.
 */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * Cuts text to at most `limit` characters, ending in "…" when cut, never splitting a surrogate pair
 * or an escape entity (&amp; &lt; &gt;) that escapeMrkdwn produced.
 */
export function truncate(text: string, limit: number): string {
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
