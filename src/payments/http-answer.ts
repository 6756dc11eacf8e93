import zlib from "node:zlib";

/** An answer of undici's `request` as a fetch Response (decompressed, capped), and the transport's errors. */

/** The answer was larger than maxResponseBytes; it was not read further. */
export class ResponseTooLargeError extends Error {
  override readonly name = "ResponseTooLargeError";
}

/** The answer's body could not be decoded (bad gzip, deflate or brotli data, or an unknown encoding). */
export class UnreadableBodyError extends Error {
  override readonly name = "UnreadableBodyError";
}

/** The service answered with a redirect (3xx), which the API never does. */
export class RedirectError extends Error {
  override readonly name = "RedirectError";
  constructor(
    readonly status: number,
    readonly location: string | undefined,
  ) {
    super(`answered HTTP ${status}${location ? ` redirecting to ${location}` : ""}`);
  }
}

const NO_BODY_STATUSES = new Set([204, 205, 304]);

/** What undici's `request` answered, its body read whole. */
type Answer = {
  statusCode: number;
  statusText?: string;
  headers: Record<string, string | string[] | undefined>;
};

/** A fetch Response of an answer read whole: decompressed, at most maxResponseBytes. */
export function fetchResponse(answer: Answer, raw: Buffer, maxResponseBytes: number): Response {
  const content = decode(raw, first(answer.headers["content-encoding"]), maxResponseBytes);
  const headers = new Headers();
  for (const name in answer.headers) {
    const value = answer.headers[name];
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return new Response(NO_BODY_STATUSES.has(answer.statusCode) ? null : content, {
    status: answer.statusCode,
    statusText: answer.statusText ?? "",
    headers,
  });
}

export function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Undoes a Content-Encoding, never producing more than `limit` bytes. */
function decode(raw: Buffer, encoding: string | undefined, limit: number): Buffer {
  const name = encoding?.trim().toLowerCase() ?? "identity";
  const options = { maxOutputLength: limit };
  try {
    switch (name) {
      case "":
      case "identity":
        return raw;
      case "gzip":
      case "x-gzip":
        return zlib.gunzipSync(raw, options);
      case "deflate":
        // Meant to be zlib-wrapped; some servers send it raw, and fetch reads both.
        return raw[0] !== undefined && (raw[0] & 0x0f) === 8
          ? zlib.inflateSync(raw, options)
          : zlib.inflateRawSync(raw, options);
      case "br":
        return zlib.brotliDecompressSync(raw, options);
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE")
      throw new ResponseTooLargeError(`the answer is larger than ${limit} bytes once decompressed`);
    // An answer arrived, but not one that can be read: not a network failure.
    throw new UnreadableBodyError(
      `the ${name} body cannot be decoded: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  throw new UnreadableBodyError(`the answer is encoded as ${name}, which Kassa cannot read`);
}
