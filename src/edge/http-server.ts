import type { ServerOptions } from "node:http";
import { ErrorCode, type HTTPModuleFunctions } from "@slack/bolt";
import { CALLBACK_PATH_PREFIX } from "../callbacks/receive.js";
import type { Logger } from "../util/logger.js";
import type { RefusalSummary } from "../util/refusal-summary.js";

/** HTTP_HEADERS_TIMEOUT_MS and HTTP_REQUEST_TIMEOUT_MS: how long a client may take to send a request. */
export type HttpTimeouts = { headersTimeoutMs: number; requestTimeoutMs: number };

/**
 * What every HTTP server of Kassa's is created with (Bolt's receiver in the two HTTP ways, the probe
 * server in Socket Mode). A connection whose headers have not all arrived within headersTimeoutMs, or
 * whose request has not within requestTimeoutMs, is answered 408 and closed: Slack's and the payment
 * service's requests are small, and a socket that trickles bytes must not hold a slot for minutes
 * (Node's own defaults: 60 s and 5 minutes). Node looks for such connections every
 * connectionsCheckingInterval (30 s by default, which would let one live three times as long), so
 * here a tenth of the headers' time, between 50 and 250 ms: a connection is cut at most a quarter of
 * a second late (the check walks only the connections still reading a request). Keep-alive stays
 * Node's: an idle connection is closed after 5 s.
 */
export function httpServerOptions(timeouts: HttpTimeouts): ServerOptions {
  return {
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(50, Math.min(250, Math.floor(timeouts.headersTimeoutMs / 10))),
  };
}

type DispatchErrorArgs = HTTPModuleFunctions.ReceiverDispatchErrorHandlerArgs;

/** The path of a request as sent, without its query; undefined when there is none to speak of. */
function pathOf(url: string | undefined): string {
  return (url ?? "").split("?", 1)[0] ?? "";
}

/**
 * What Bolt's receiver does with a request it cannot route. Its default answers a path it cannot
 * decode (`/crystalpay/callback/%E0%A4%A`, a request target that is not a path) with 500 and an
 * `error` line each: the sender's mistake counted as Kassa's, and a flood of them a flood of error
 * lines. Here: an unknown path or method is 404, a path that cannot be read 400, and each is counted
 * in the refusal summary (one line a minute), never logged one by one. Anything else is still
 * Kassa's error: 500 and an `error` line.
 */
export function dispatchErrorHandler(
  refusals: Pick<RefusalSummary, "count">,
  logger: Logger,
): (args: DispatchErrorArgs) => void {
  return ({ error, request, response }) => {
    const path = pathOf(request.url);
    const callback = path.startsWith(CALLBACK_PATH_PREFIX);
    const code = "code" in error ? error.code : undefined;
    if (code === ErrorCode.HTTPReceiverDeferredRequestError) {
      refusals.count(undefined, callback ? "unknown callback address" : "unknown path");
      return answer(request, response, 404);
    }
    // decodeURIComponent (Bolt matches routes with it) and new URL (Bolt parses the target with it).
    if (error instanceof URIError || code === "ERR_INVALID_URL") {
      refusals.count(undefined, callback ? "malformed callback address" : "malformed path");
      return answer(request, response, 400);
    }
    logger.error({ err: error, method: request.method, path }, "could not route an HTTP request");
    return answer(request, response, 500);
  };
}

function answer(
  request: DispatchErrorArgs["request"],
  response: DispatchErrorArgs["response"],
  status: number,
) {
  if (!response.headersSent) response.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  response.end();
  // Whatever body came is not read; let it drain so the connection can be reused or closed cleanly.
  if (!request.complete) request.resume();
}
