import { z } from "zod";

/** The payment service's payment page host; manifest.yml declares it in `features.unfurl_domains`. */
export const PAYMENT_PAGE_HOST = "pay.crystalpay.io";

/** Invoice ids are opaque: letters, digits, `_` and `-` (e.g. `715308958_rPwTzvsvCm`). */
export const INVOICE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** A payment page link reduced to what Kassa reads from it. */
export type PaymentLink = { invoiceId: string; method?: string };

/**
 * The query of a payment page link: `i` the invoice id, optionally `m` a method the payer is sent to.
 * Strict: another parameter, a repeated one or a malformed id makes it not a payment link.
 */
const paymentLinkQuery = z.strictObject({
  i: z.string().regex(INVOICE_ID_PATTERN),
  m: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional(),
});

/**
 * `https://pay.crystalpay.io/?i=<id>[&m=<METHOD>]` -> its invoice id (and method); anything else
 * (another host, scheme, port or path, credentials in the URL, extra or repeated parameters, a
 * fragment, an id that is not an invoice id) -> null. Slack may hand over `&` escaped as `&amp;`.
 */
export function parsePaymentLink(url: string): PaymentLink | null {
  let parsed: URL;
  try {
    parsed = new URL(url.replace(/&amp;/g, "&"));
  } catch {
    return null;
  }
  if (
    parsed.protocol !== "https:" ||
    parsed.hostname !== PAYMENT_PAGE_HOST ||
    parsed.port !== "" ||
    parsed.username !== "" ||
    parsed.password !== "" ||
    parsed.pathname !== "/" ||
    parsed.hash !== ""
  ) {
    return null;
  }
  const entries = [...parsed.searchParams];
  const query = Object.fromEntries(entries);
  if (Object.keys(query).length !== entries.length) return null;
  const result = paymentLinkQuery.safeParse(query);
  if (!result.success) return null;
  return result.data.m === undefined
    ? { invoiceId: result.data.i }
    : { invoiceId: result.data.i, method: result.data.m };
}

/**
 * The payment links of one shared message worth unfurling: each distinct URL once, in the order
 * shared, at most `limit` of them (Slack shows no more than a few unfurls per message; each one is a
 * read of the payment service). Everything that is not a payment link is left out.
 */
export function paymentLinksToUnfurl(
  urls: readonly string[],
  limit: number,
): Array<PaymentLink & { url: string }> {
  const found: Array<PaymentLink & { url: string }> = [];
  const seen = new Set<string>();
  for (const url of urls) {
    if (found.length >= limit) break;
    if (seen.has(url)) continue;
    seen.add(url);
    const link = parsePaymentLink(url);
    if (link) found.push({ url, ...link });
  }
  return found;
}
