/**
 * Prints a Slack message readably in a terminal, for `npm run demo`: mrkdwn entities decoded,
 * date tokens shown as a reader in a given timezone sees them, links and buttons spelled out.
 */
type Text = { type?: string; text?: string };
type Element = { type?: string; text?: Text | string; url?: string; action_id?: string };
type Block = { type?: string; text?: Text; fields?: Text[]; elements?: Element[]; accessory?: Element };

const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const style = (code: string, text: string) => (useColour ? `\u001b[${code}m${text}\u001b[0m` : text);
export const bold = (text: string) => style("1", text);
export const dim = (text: string) => style("2", text);

/** Who reads: the timezone Slack shows date tokens in, and "now" for Today / Yesterday. */
export type Reader = { timeZone: string; now?: Date };

/** The machine's own zone: what `npm run demo` shows without --tz. */
export function machineTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function parts(epochSeconds: number, timeZone: string): Record<string, string> {
  const format = new Intl.DateTimeFormat("en-US", {
    timeZone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    second: "2-digit",
    hour12: true,
  });
  return Object.fromEntries(
    format.formatToParts(new Date(epochSeconds * 1000)).map((part) => [part.type, part.value]),
  );
}

function dayNumber(epochSeconds: number, timeZone: string): number {
  const iso = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(epochSeconds * 1000));
  return Date.parse(`${iso}T00:00:00Z`) / 86_400_000;
}

const ordinal = (day: string) => {
  const n = Number(day);
  const suffix =
    n % 10 === 1 && n !== 11
      ? "st"
      : n % 10 === 2 && n !== 12
        ? "nd"
        : n % 10 === 3 && n !== 13
          ? "rd"
          : "th";
  return `${n}${suffix}`;
};

/**
 * One Slack date token (`<!date^epoch^{date_short_pretty} {time}|fallback>`) as Slack renders it for
 * a reader in `reader.timeZone` (en-US, 12-hour clock); a format Slack would not know shows the fallback.
 */
export function renderSlackDate(
  epochSeconds: number,
  format: string,
  fallback: string,
  reader: Reader,
): string {
  const p = parts(epochSeconds, reader.timeZone);
  const month = p.month ?? "";
  const short = `${month.slice(0, 3)} ${p.day}, ${p.year}`;
  const nowSeconds = Math.floor((reader.now ?? new Date()).getTime() / 1000);
  const offset = dayNumber(epochSeconds, reader.timeZone) - dayNumber(nowSeconds, reader.timeZone);
  const pretty = offset === 0 ? "Today" : offset === -1 ? "Yesterday" : offset === 1 ? "Tomorrow" : undefined;
  const numeric = new Intl.DateTimeFormat("en-CA", {
    timeZone: reader.timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(epochSeconds * 1000));
  const tokens: Record<string, string> = {
    date_num: numeric,
    date: `${month} ${ordinal(p.day ?? "")}, ${p.year}`,
    date_short: short,
    date_long: `${p.weekday}, ${month} ${ordinal(p.day ?? "")}, ${p.year}`,
    date_pretty: pretty ?? `${month} ${ordinal(p.day ?? "")}, ${p.year}`,
    date_short_pretty: pretty ?? short,
    date_long_pretty: pretty ?? `${p.weekday}, ${month} ${ordinal(p.day ?? "")}, ${p.year}`,
    time: `${p.hour}:${p.minute} ${p.dayPeriod}`,
    time_secs: `${p.hour}:${p.minute}:${p.second} ${p.dayPeriod}`,
  };
  let unknown = false;
  const text = format.replace(/\{(\w+)\}/g, (_whole, name: string) => {
    const value = tokens[name];
    if (value === undefined) unknown = true;
    return value ?? "";
  });
  return unknown ? fallback : text;
}

/** mrkdwn -> plain terminal text; date tokens as `reader` sees them (their fallback without one). */
export function plain(mrkdwn: string, reader?: Reader): string {
  return mrkdwn
    .replace(
      /<!date\^(\d+)\^([^|>]*)\|([^>]*)>/g,
      (_whole, epoch: string, format: string, fallback: string) =>
        reader ? renderSlackDate(Number(epoch), format, fallback, reader) : fallback,
    )
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, "$2 ($1)")
    .replace(/<(https?:[^>]+)>/g, "$1")
    .replace(/\*([^*\n]+)\*/g, (_m, inner: string) => bold(inner))
    .replace(/(^|\s)_([^_\n]+)_(?=\s|$)/g, "$1$2")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

export function renderMessage(message: Record<string, unknown>, reader?: Reader): string {
  const textOf = (value: Text | string | undefined): string => {
    if (value === undefined) return "";
    return typeof value === "string" ? value : plain(value.text ?? "", reader);
  };
  const lines: string[] = [];
  const visibility =
    message.response_type === "in_channel"
      ? "in channel"
      : message.response_type === "unfurl"
        ? "unfurled under the message"
        : "only you (ephemeral)";
  lines.push(dim(`[${visibility}]`));
  const blocks = (message.blocks as Block[] | undefined) ?? [];
  if (blocks.length === 0) lines.push(plain(String(message.text ?? ""), reader));
  for (const block of blocks) {
    switch (block.type) {
      case "header":
        lines.push(bold(textOf(block.text)));
        break;
      case "section":
        if (block.text) lines.push(textOf(block.text));
        for (const field of block.fields ?? []) lines.push(`  ${textOf(field).replace("\n", ": ")}`);
        if (block.accessory?.type === "button")
          lines.push(
            `  [ ${textOf(block.accessory.text)} ]${block.accessory.url ? ` -> ${block.accessory.url}` : ""}`,
          );
        break;
      case "actions":
        for (const element of block.elements ?? []) {
          lines.push(`  [ ${textOf(element.text)} ]${element.url ? ` -> ${element.url}` : ""}`);
        }
        break;
      case "context":
        lines.push(dim((block.elements ?? []).map((element) => textOf(element as Text)).join("  ")));
        break;
      case "divider":
        lines.push(dim("-".repeat(40)));
        break;
      default:
        lines.push(dim(`(${block.type} block)`));
    }
  }
  return lines.join("\n");
}
