/**
 * Prints a Slack message readably in a terminal, for `npm run demo`: mrkdwn entities decoded,
 * date tokens shown as their fallback, links and buttons spelled out.
 */
type Text = { type?: string; text?: string };
type Element = { type?: string; text?: Text | string; url?: string; action_id?: string };
type Block = { type?: string; text?: Text; fields?: Text[]; elements?: Element[]; accessory?: Element };

const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const style = (code: string, text: string) => (useColour ? `\u001b[${code}m${text}\u001b[0m` : text);
export const bold = (text: string) => style("1", text);
export const dim = (text: string) => style("2", text);

/** mrkdwn -> plain terminal text. */
export function plain(mrkdwn: string): string {
  return mrkdwn
    .replace(/<!date\^\d+\^[^|>]*\|([^>]*)>/g, "$1")
    .replace(/<(https?:[^|>]+)\|([^>]+)>/g, "$2 ($1)")
    .replace(/<(https?:[^>]+)>/g, "$1")
    .replace(/\*([^*\n]+)\*/g, (_m, inner: string) => bold(inner))
    .replace(/(^|\s)_([^_\n]+)_(?=\s|$)/g, "$1$2")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

function textOf(value: Text | string | undefined): string {
  if (value === undefined) return "";
  return typeof value === "string" ? value : plain(value.text ?? "");
}

export function renderMessage(message: Record<string, unknown>): string {
  const lines: string[] = [];
  const visibility =
    message.response_type === "in_channel"
      ? "in channel"
      : message.response_type === "unfurl"
        ? "unfurled under the message"
        : "only you (ephemeral)";
  lines.push(dim(`[${visibility}]`));
  const blocks = (message.blocks as Block[] | undefined) ?? [];
  if (blocks.length === 0) lines.push(plain(String(message.text ?? "")));
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
