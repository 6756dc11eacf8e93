import { z } from "zod";

// The building blocks of config.ts's schema: how one variable's text becomes a value.

/** Zones accepted by PAYMENTS_TIMEZONE: whatever this Node's Intl knows (IANA names). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Decodes CREDENTIALS_KEY: 32 bytes written as 64 hex digits or as base64. */
export function decodeKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, "hex");
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed, "base64");
    if (bytes.length === 32) return bytes;
  }
  return undefined;
}

/**
 * STORE_URL: an SQLite file (one process, or several on one host), or Redis / PostgreSQL, which
 * several replicas behind a load balancer can share.
 */
export function isStoreUrl(value: string): boolean {
  if (/^sqlite:\/\/./.test(value)) return true;
  return /^(rediss?|postgres(ql)?):\/\/./.test(value) && URL.canParse(value);
}

export const emptyAsUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;
export const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
export const withTrailingSlash = (url: string) => (url.endsWith("/") ? url : `${url}/`);
export const httpUrl = (fallback: string) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .default(fallback)
      .transform(withTrailingSlash),
  );
/** Kassa's own public origin: https, or http on a loopback address (tests, the demo). */
export function isPublicUrl(value: string): boolean {
  try {
    const url = new URL(value);
    if (url.search || url.hash || url.username || url.password) return false;
    return (
      url.protocol === "https:" ||
      (url.protocol === "http:" && /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/.test(url.hostname))
    );
  } catch {
    return false;
  }
}

export const integer = (fallback: number, min: number, max: number) =>
  z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: "must be a whole number" })
      .int({ error: "must be a whole number" })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` })
      .default(fallback),
  );
