import { FAILURE_EVENTS, FEED_EVENTS, type FeedEvent } from "../../feed/model.js";
import { parseRubAmount } from "../../util/rub-amount.js";

/** What `/invoice subscribe <words>` asks of a channel's feed: which changes, from which rouble amount. */
export type SubscribeWords = { events: FeedEvent[]; minRub: string | null };

/** The words for what to post, English and Russian, and the changes each stands for. */
const KINDS: ReadonlyArray<[RegExp, readonly FeedEvent[]]> = [
  [/^(paid|payments?|оплаченные|оплаты|оплата|платежи)$/i, ["paid"]],
  [/^(all|все|всё)$/i, FEED_EVENTS],
  [/^(failures?|failed|сбои|ошибки|неудачи|неудачные)$/i, FAILURE_EVENTS],
];
/** The words before an amount: `over 10000`, `from 10000`, `от 10000`, `свыше 10000`. */
const FROM = /^(over|from|above|min|>=?|от|свыше|больше|более)$/i;

/**
 * The words after `/invoice subscribe`: kinds (`paid`, `failures`, `all`; Russian too) that add up,
 * then an amount (`over 10000`). Nothing: null (the feed as it is, or paid for a new one); an amount
 * alone: paid from it. Anything else: "invalid" (the reply shows how to write it).
 */
export function parseSubscribeWords(text: string): SubscribeWords | null | "invalid" {
  const words = text
    .trim()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (words.length === 0) return null;
  const events = new Set<FeedEvent>();
  let index = 0;
  for (; index < words.length; index += 1) {
    const kind = KINDS.find(([pattern]) => pattern.test(words[index] ?? ""));
    if (!kind) break;
    for (const event of kind[1]) events.add(event);
  }
  let minRub: string | null = null;
  if (index < words.length) {
    const from = FROM.test(words[index] ?? "") ? index + 1 : index;
    if (from >= words.length || !/^\d/.test(words[from] ?? "")) return "invalid";
    // Slack escapes & < > in a command's text; an amount has none of them.
    const amount = parseRubAmount(words.slice(from).join(" "));
    if (amount === null || amount === "invalid") return "invalid";
    minRub = amount;
  }
  return {
    events: events.size > 0 ? FEED_EVENTS.filter((event) => events.has(event)) : ["paid"],
    minRub,
  };
}
