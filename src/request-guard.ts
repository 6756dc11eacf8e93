import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { type BufferedIncomingMessage, HTTPModuleFunctions, type HTTPReceiver } from "@slack/bolt";
import type { Logger } from "./logger.js";

/** Slack's replay window, applied both ways: a timestamp this far in the past or future is refused. */
export const MAX_CLOCK_SKEW_SEC = 5 * 60;

/**
 * Checks a POST to /slack/events before Bolt's receiver sees it: signature, timestamp skew either way
 * (Bolt only refuses old ones), and a body that is an object. A signed body of `null` (or
 * `payload=null`) makes the receiver throw outside any handler, an unhandled rejection; here it is a
 * 400. Anything that passes goes on to the receiver as it was, already buffered.
 */
export function guardReceiver(
  receiver: HTTPReceiver,
  options: { signingSecret: string; bodyLimit: number; logger: Logger; now?: () => number },
): void {
  const next: RequestListener = receiver.requestListener;
  const now = options.now ?? Date.now;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== "POST" || new URL(req.url ?? "/", "http://kassa").pathname !== "/slack/events") {
      return next(req, res);
    }
    check(req, res).then(
      (passed) => {
        if (passed) next(passed, res);
      },
      (error: unknown) => {
        options.logger.error({ err: error }, "could not check a request to /slack/events");
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  };

  async function check(req: IncomingMessage, res: ServerResponse): Promise<BufferedIncomingMessage | null> {
    let buffered: BufferedIncomingMessage;
    try {
      buffered = await HTTPModuleFunctions.parseAndVerifyHTTPRequest(
        { enabled: true, signingSecret: options.signingSecret, bodyLimit: options.bodyLimit },
        req,
      );
    } catch (error) {
      // The same answers Bolt gives: 413 for a body over the limit, 401 for anything unsigned.
      const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
      options.logger.warn({ reason: (error as Error).message }, "request to /slack/events refused");
      res.writeHead(tooLarge ? 413 : 401).end();
      return null;
    }
    const timestamp = Number(req.headers["x-slack-request-timestamp"]);
    if (Number.isFinite(timestamp) && Math.abs(now() / 1000 - timestamp) > MAX_CLOCK_SKEW_SEC) {
      options.logger.warn(
        { skewSec: Math.round(timestamp - now() / 1000) },
        "request timestamp out of range",
      );
      res.writeHead(401).end();
      return null;
    }
    let body: unknown;
    try {
      body = HTTPModuleFunctions.parseHTTPRequestBody(buffered);
    } catch {
      body = undefined;
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      options.logger.warn("signed request to /slack/events whose body is not an object");
      res.writeHead(400, { "content-type": "text/plain" }).end("The request body must be a JSON object.");
      return null;
    }
    return buffered;
  }
}
