import type { Money, ServiceTime } from "../payments/model.js";

/** 1234567.0000001 -> "1,234,567.0000001": digits grouped, every decimal kept. */
export function formatDecimal(value: string): string {
  const negative = value.startsWith("-");
  const unsigned = negative ? value.slice(1) : value;
  const [whole = "0", fraction] = unsigned.split(".");
  // A loop, not /\B(?=(\d{3})+(?!\d))/: that lookahead rescans the rest of the number at every digit.
  const groups: string[] = [];
  for (let end = whole.length; end > 0; end -= 3) groups.push(whole.slice(Math.max(0, end - 3), end));
  const grouped = groups.reverse().join(",");
  return `${negative ? "-" : ""}${grouped}${fraction ? `.${fraction}` : ""}`;
}

/**
 * An amount is never shown without its currency, or without saying the service's answer does not
 * tie it to one (a v3 answer naming two different invoice currencies; the card says which two).
 */
export function formatMoney(money: Money): string {
  return `${formatDecimal(money.value)} ${money.currency ?? "(currency unclear)"}`;
}

/**
 * A Slack date token: every reader sees the moment in their own timezone. The fallback (old clients,
 * notifications) is the service's own text with the zone it was read in.
 */
export function slackDate(time: ServiceTime): string {
  return `<!date^${time.epochSeconds}^{date_short_pretty} {time}|${time.text} ${time.zone}>`;
}

/** Same token for a moment we measured ourselves (e.g. "updated"), with a UTC fallback. */
export function slackDateFromEpoch(epochSeconds: number): string {
  const fallback = `${new Date(epochSeconds * 1000).toISOString().slice(0, 19).replace("T", " ")} UTC`;
  return `<!date^${epochSeconds}^{date_short_pretty} {time}|${fallback}>`;
}
