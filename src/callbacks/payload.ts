import { parse as parseQuery } from "node:querystring";
import { z } from "zod";

// A callback's body is the invoice/info fields plus `signature` (v2: numbers; v3: strings, unset
// fields null). Kassa takes only the id and the signature from it: amounts and state are read again
// from invoice/info, so the rest of the body is neither parsed nor trusted.

/** The largest body accepted; an invoice's info with a long description fits well within it. */
export const CALLBACK_BODY_LIMIT_BYTES = 64 * 1024;

const INVOICE_ID = /^[A-Za-z0-9_-]{1,100}$/;

const callbackSchema = z.object({
  id: z
    .union([z.string(), z.number().int().nonnegative()])
    .transform(String)
    .pipe(z.string().regex(INVOICE_ID)),
  signature: z.string().regex(/^[0-9a-fA-F]{40}$/),
});

export type SignedCallback = { invoiceId: string; signature: string };

export type ParsedCallback = { ok: true; callback: SignedCallback } | { ok: false; reason: string };

/** Reads a callback body, JSON or form-encoded, as the service may send either. */
export function parseCallback(contentType: string | undefined, rawBody: string): ParsedCallback {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase();
  let body: unknown;
  if (type === "application/x-www-form-urlencoded") {
    body = { ...parseQuery(rawBody) };
  } else {
    try {
      body = JSON.parse(rawBody);
    } catch {
      return { ok: false, reason: "body is neither JSON nor a form" };
    }
  }
  const parsed = callbackSchema.safeParse(body);
  if (!parsed.success) {
    const missing = parsed.error.issues.map((issue) => issue.path.join(".") || "body");
    return { ok: false, reason: `no valid ${[...new Set(missing)].join(" and ")}` };
  }
  return { ok: true, callback: { invoiceId: parsed.data.id, signature: parsed.data.signature } };
}
