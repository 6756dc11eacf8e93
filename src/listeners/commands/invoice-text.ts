import { INVOICE_ID_PATTERN } from "../../payments/payment-link.js";

export { INVOICE_ID_PATTERN };

/** What the text after `/invoice` asks for. */
export type AdminAction = "connect" | "disconnect" | "status";

export type InvoiceRequest =
  | { kind: "help" }
  | { kind: "admin"; action: AdminAction }
  | { kind: "lookup"; invoiceId: string }
  | { kind: "invalid"; reason: string; input: string };

/**
 * Reads an invoice id or a payment page link (`https://pay.crystalpay.io/?i=<id>`). Slack wraps
 * links as `<url>` or `<url|label>` when the command escapes its text; both are accepted.
 */
export function parseInvoiceText(text: string): InvoiceRequest {
  const trimmed = text.trim();
  if (trimmed === "" || /^(help|\?|-h|--help)$/i.test(trimmed)) return { kind: "help" };
  const admin = /^(connect|disconnect|status)$/i.exec(trimmed)?.[1];
  if (admin) return { kind: "admin", action: admin.toLowerCase() as AdminAction };

  // Slack escapes & as &amp; in the text it sends.
  const unwrapped = (/^<([^|>]+)(\|[^>]*)?>$/.exec(trimmed)?.[1] ?? trimmed).replace(/&amp;/g, "&");
  if (/^https?:\/\//i.test(unwrapped)) {
    let id: string | null = null;
    try {
      id = new URL(unwrapped).searchParams.get("i");
    } catch {
      return { kind: "invalid", reason: "That link cannot be read", input: trimmed };
    }
    if (id === null)
      return { kind: "invalid", reason: "That link has no invoice id (`?i=...`)", input: trimmed };
    if (!INVOICE_ID_PATTERN.test(id)) {
      return { kind: "invalid", reason: "The invoice id in that link is not valid", input: trimmed };
    }
    return { kind: "lookup", invoiceId: id };
  }
  if (/\s/.test(trimmed))
    return { kind: "invalid", reason: "Give one invoice id, without spaces", input: trimmed };
  if (!INVOICE_ID_PATTERN.test(trimmed)) {
    return { kind: "invalid", reason: "That is not a valid invoice id", input: trimmed };
  }
  return { kind: "lookup", invoiceId: trimmed };
}
