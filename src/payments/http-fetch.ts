import { Agent, type Dispatcher, errors, request } from "undici";
import { fetchResponse, first, RedirectError, ResponseTooLargeError } from "./http-answer.js";

/**
 * The `fetch` that ofetch uses for the payment service: undici's `request` on a keep-alive Agent,
 * the whole answer read into memory.
 *
 * Why not the built-in fetch: it builds WHATWG streams and a Request per call, about twice the CPU of
 * `request` on Node 24 (on Node 20, 230 µs against 35 µs for node:http), and every `/invoice` makes
 * one (figures in docs/benchmarks.md). ofetch takes a custom fetch for exactly this
 * (`createFetch({ fetch })`), so the client keeps ofetch's body and error handling.
 *
 * It does what the payments client needs, no more: a method, headers, a string body, and a time-out
 * per call (timeoutMs) for each step: connecting, the headers once the request is sent (not while
 * it waits for a connection), and the whole body once the headers came; an AbortSignal in `init` is honoured too, but creating one per call
 * is measurable CPU, so the client does not. Redirects are refused, not followed: the API never
 * redirects, so one means a wrong PAYMENTS_API_URL (http for https, a missing path). An answer is
 * capped in size, compressed or not.
 */
export type HttpFetch = typeof fetch & {
  /** Closes the connections (at shutdown). */
  close(): void;
};

export type HttpFetchOptions = {
  /**
   * Longest time to connect, to get the headers once the request is sent, and to read the whole body
   * once they came; a call then rejects with a TimeoutError, as a fetch with `AbortSignal.timeout()` does.
   * 0 or unset: no limit of its own.
   */
  timeoutMs?: number;
  /** Connections per host at most; more requests wait for one. */
  maxSockets?: number;
  /** An idle connection is closed after this long (under the 5 s most servers allow). */
  idleTimeoutMs?: number;
  /** Longest answer read, after decompression. */
  maxResponseBytes?: number;
  /** Extra certificate authorities for https (tests with a self-signed certificate). */
  ca?: string;
};

export { RedirectError, ResponseTooLargeError, UnreadableBodyError } from "./http-answer.js";

/** The service's answers are a few kilobytes; a long method list, tens. */
export const MAX_RESPONSE_BYTES = 4 * 1024 * 1024;

const TIMEOUT_MESSAGE = "The operation was aborted due to timeout";

export function createHttpFetch(options: HttpFetchOptions = {}): HttpFetch {
  const timeoutMs = options.timeoutMs ?? 0;
  const maxResponseBytes = options.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const idleTimeoutMs = options.idleTimeoutMs ?? 4000;
  const agent = new Agent({
    connections: options.maxSockets ?? 64,
    // The server's own Keep-Alive hint may shorten this, never lengthen it.
    keepAliveTimeout: idleTimeoutMs,
    keepAliveMaxTimeout: idleTimeoutMs,
    // Backstops only: undici runs these on timers of about a second's resolution, so the deadline
    // below is what cuts a call in time.
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    // The raw answer; decode() caps the decompressed one.
    maxResponseSize: maxResponseBytes,
    connect: { ...(timeoutMs ? { timeout: timeoutMs } : {}), ...(options.ca ? { ca: options.ca } : {}) },
  });
  const dispatcher = timeoutMs ? agent.compose(deadline(timeoutMs)) : agent;

  const httpFetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith("http:") && !url.startsWith("https:"))
      throw new TypeError(`cannot fetch ${url.slice(0, url.indexOf(":") + 1)} URLs`);
    const body = stringBody(init.body);
    const signal = init.signal ?? undefined;
    if (signal?.aborted) throw signal.reason;
    try {
      const answer = await request(url, {
        dispatcher,
        method: (init.method ?? "GET") as "GET",
        headers: requestHeaders(init),
        body: body ?? null,
        ...(signal ? { signal } : {}),
      });
      if (answer.statusCode >= 300 && answer.statusCode < 400) {
        await answer.body.dump();
        throw new RedirectError(answer.statusCode, first(answer.headers.location));
      }
      return fetchResponse(answer, Buffer.from(await answer.body.arrayBuffer()), maxResponseBytes);
    } catch (error) {
      throw fetchError(error, signal, maxResponseBytes);
    }
  };

  return Object.assign(httpFetch as typeof fetch, {
    close() {
      agent.destroy().catch(() => {});
    },
  });
}

/**
 * One timer per call from when the request has a connection (new or reused), not while it waits
 * for one behind maxSockets: the time-out measures the service, not our own queue. It covers the
 * headers and the whole body, so an answer that trickles in is cut too.
 */
function deadline(timeoutMs: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) => dispatch(options, new DeadlineHandler(handler, timeoutMs));
}

class DeadlineHandler implements Dispatcher.DispatchHandler {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly handler: Dispatcher.DispatchHandler,
    private readonly timeoutMs: number,
  ) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: unknown): void {
    this.timer = setTimeout(
      () => controller.abort(new DOMException(TIMEOUT_MESSAGE, "TimeoutError")),
      this.timeoutMs,
    );
    this.handler.onRequestStart?.(controller, context);
  }

  onResponseStart(...args: Parameters<NonNullable<Dispatcher.DispatchHandler["onResponseStart"]>>): void {
    this.handler.onResponseStart?.(...args);
  }

  onResponseData(...args: Parameters<NonNullable<Dispatcher.DispatchHandler["onResponseData"]>>): void {
    this.handler.onResponseData?.(...args);
  }

  onResponseEnd(...args: Parameters<NonNullable<Dispatcher.DispatchHandler["onResponseEnd"]>>): void {
    clearTimeout(this.timer);
    this.handler.onResponseEnd?.(...args);
  }

  onResponseError(...args: Parameters<NonNullable<Dispatcher.DispatchHandler["onResponseError"]>>): void {
    clearTimeout(this.timer);
    this.handler.onResponseError?.(...args);
  }
}

function stringBody(body: RequestInit["body"]): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== "string") throw new TypeError("only string bodies are sent");
  return body;
}

function requestHeaders(init: RequestInit): Record<string, string> {
  const headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" };
  // ofetch passes a Headers object already; anything else is read through one.
  (init.headers instanceof Headers ? init.headers : new Headers(init.headers)).forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** undici's failures as the built-in fetch reports them: a time-out is a TimeoutError. */
function fetchError(error: unknown, signal: AbortSignal | undefined, maxResponseBytes: number): unknown {
  // As the built-in fetch does: reject with the signal's reason (a TimeoutError for a time-out).
  if (signal?.aborted) return signal.reason;
  if (
    error instanceof errors.HeadersTimeoutError ||
    error instanceof errors.BodyTimeoutError ||
    error instanceof errors.ConnectTimeoutError
  )
    return new DOMException(TIMEOUT_MESSAGE, "TimeoutError");
  if (error instanceof errors.ResponseExceededMaxSizeError)
    return new ResponseTooLargeError(`the answer is larger than ${maxResponseBytes} bytes`);
  return error;
}
