import type http from "node:http";
import zlib from "node:zlib";

/** Reading an answer of node:http into a fetch Response: capped, decompressed, never redirected. */

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

/** Reads the whole answer, at most maxResponseBytes, refusing redirects. */
export function readAnswer(
  response: http.IncomingMessage,
  maxResponseBytes: number,
  succeed: (response: Response) => void,
  fail: (error: unknown) => void,
): void {
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    response.resume();
    fail(new RedirectError(status, response.headers.location));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  response.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxResponseBytes) {
      fail(new ResponseTooLargeError(`the answer is larger than ${maxResponseBytes} bytes`));
      return;
    }
    chunks.push(chunk);
  });
  response.on("error", fail);
  response.on("close", () => {
    if (!response.complete) fail(new Error("the connection closed before the whole answer arrived"));
  });
  response.on("end", () => {
    try {
      const content = decode(
        Buffer.concat(chunks, size),
        response.headers["content-encoding"],
        maxResponseBytes,
      );
      succeed(fetchResponse(response, status, content));
    } catch (error) {
      fail(error);
    }
  });
}

function fetchResponse(response: http.IncomingMessage, status: number, content: Buffer): Response {
  const headers = new Headers();
  for (let index = 0; index + 1 < response.rawHeaders.length; index += 2) {
    headers.append(response.rawHeaders[index] as string, response.rawHeaders[index + 1] as string);
  }
  return new Response(NO_BODY_STATUSES.has(status) ? null : content, {
    status,
    statusText: response.statusMessage ?? "",
    headers,
  });
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
