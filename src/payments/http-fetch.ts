import http from "node:http";
import https from "node:https";
import { urlToHttpOptions } from "node:url";
import { readAnswer } from "./http-answer.js";

/**
 * The `fetch` that ofetch uses for the payment service: node:http and node:https with keep-alive
 * agents, the whole answer read into memory.
 *
 * Why not the built-in fetch: on Node 20 (undici) a call costs several times the CPU of a node:http
 * request, and every `/invoice` makes one; under load that was the largest part of Kassa's own work
 * (figures in docs/benchmarks.md). ofetch takes a custom fetch for
 * exactly this (`createFetch({ fetch })`), so the client keeps ofetch's body and error handling.
 *
 * It does what the payments client needs, no more: a method, headers, a string body, and a time-out
 * per call that covers the headers and the body (timeoutMs; an AbortSignal in `init` is honoured
 * too, but creating one per call is measurable CPU, so the client does not). Redirects are refused, not
 * followed: the API never redirects, so one means a wrong PAYMENTS_API_URL (http for https, a
 * missing path). An answer is capped in size, compressed or not.
 */
export type HttpFetch = typeof fetch & {
  /** Closes the idle connections (at shutdown). */
  close(): void;
};

export type HttpFetchOptions = {
  /**
   * Longest a call may take, headers and body; it then rejects with a TimeoutError, as a fetch
   * with `AbortSignal.timeout()` does. 0 or unset: no limit of its own.
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

export function createHttpFetch(options: HttpFetchOptions = {}): HttpFetch {
  const transport: Transport = {
    agents: keepAliveAgents(options),
    maxResponseBytes: options.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    timeoutMs: options.timeoutMs ?? 0,
  };
  const targetOf = parsedOnce();

  const httpFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> =>
    // A step that throws rejects the call: the executor turns the throw into a rejection.
    new Promise<Response>((resolve, reject) => {
      const target = fetchable(
        targetOf(typeof input === "string" ? input : input instanceof URL ? input.href : input.url),
      );
      const body = stringBody(init.body);
      if (init.signal?.aborted) {
        reject(init.signal.reason);
        return;
      }
      exchange(transport, target, init, body, resolve, reject);
    });

  return Object.assign(httpFetch as typeof fetch, {
    close() {
      transport.agents.http.destroy();
      transport.agents.https.destroy();
    },
  });
}

type Target = ReturnType<typeof urlToHttpOptions>;

/** What every call of one HttpFetch shares. */
type Transport = {
  agents: { http: http.Agent; https: https.Agent };
  maxResponseBytes: number;
  /** 0: no time-out of its own. */
  timeoutMs: number;
};

function keepAliveAgents(options: HttpFetchOptions): Transport["agents"] {
  const agentOptions = {
    keepAlive: true,
    maxSockets: options.maxSockets ?? 64,
    // Acts on idle sockets only: the agent closes a free socket on timeout; a request in flight is
    // bounded by timeoutMs (or its signal), not by this.
    timeout: options.idleTimeoutMs ?? 4000,
  };
  return {
    http: new http.Agent(agentOptions),
    https: new https.Agent({ ...agentOptions, ...(options.ca ? { ca: options.ca } : {}) }),
  };
}

/** The client calls a handful of URLs over and over: each is parsed once, not on every call. */
function parsedOnce(): (href: string) => Target {
  const targets = new Map<string, Target>();
  return (href) => {
    let target = targets.get(href);
    if (!target) {
      target = urlToHttpOptions(new URL(href));
      if (targets.size >= 64) targets.clear();
      targets.set(href, target);
    }
    return target;
  };
}

function fetchable(target: Target): Target {
  if (target.protocol !== "http:" && target.protocol !== "https:")
    throw new TypeError(`cannot fetch ${target.protocol} URLs`);
  return target;
}

function stringBody(body: RequestInit["body"]): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body !== "string") throw new TypeError("only string bodies are sent");
  return body;
}

function requestHeaders(init: RequestInit, body: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { "accept-encoding": "gzip, deflate, br" };
  // ofetch passes a Headers object already; anything else is read through one.
  (init.headers instanceof Headers ? init.headers : new Headers(init.headers)).forEach((value, name) => {
    headers[name] = value;
  });
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  return headers;
}

/** Sends one request and settles the call exactly once: with the answer, or with the first failure. */
function exchange(
  transport: Transport,
  target: Target,
  init: RequestInit,
  body: string | undefined,
  resolve: (response: Response) => void,
  reject: (reason: unknown) => void,
): void {
  const signal = init.signal;
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  const finish = () => {
    settled = true;
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  };
  const fail = (error: unknown) => {
    if (settled) return;
    finish();
    request.destroy();
    reject(error);
  };
  const succeed = (response: Response) => {
    if (settled) return;
    finish();
    resolve(response);
  };
  // As the built-in fetch does: reject with the signal's reason (a TimeoutError for a time-out).
  const onAbort = () => fail(signal?.reason);

  const secure = target.protocol === "https:";
  const request = (secure ? https : http).request(
    {
      ...target,
      method: init.method ?? "GET",
      headers: requestHeaders(init, body),
      agent: secure ? transport.agents.https : transport.agents.http,
    },
    (response) => readAnswer(response, transport.maxResponseBytes, succeed, fail),
  );
  request.on("error", fail);
  signal?.addEventListener("abort", onAbort, { once: true });
  // Counted from when the request has a connection (new or reused), not while it waits for one
  // behind maxSockets: the time-out measures the service, not our own queue. It covers connecting,
  // the headers and the whole body, so an answer that never finishes is cut here.
  const timeoutMs = transport.timeoutMs;
  if (timeoutMs)
    request.once("socket", () => {
      if (settled) return;
      timer = setTimeout(
        () => fail(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
        timeoutMs,
      );
    });
  request.end(body);
}
