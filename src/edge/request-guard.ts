import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import { parse as parseQuery } from "node:querystring";
import { HTTPModuleFunctions, type HTTPReceiver } from "@slack/bolt";
import type { Logger } from "../util/logger.js";

/** Slack's own bound on clock skew, which Bolt applies only to timestamps in the past. */
export const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

type Verdict = { ok: true } | { ok: false; status: 400 | 401 | 413; reason: string };

const OK: Verdict = { ok: true };

/** A body Bolt can read: a JSON object (not null, an array, a string or a number). */
function isObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parsesToObject(text: string): boolean {
  try {
    return isObject(JSON.parse(text));
  } catch {
    return false;
  }
}

const FORM = "application/x-www-form-urlencoded";

/**
 * The media type of a Content-Type header, lower case and without its parameters
 * (`Application/X-WWW-Form-Urlencoded; charset=utf-8` is a form): media types are case-insensitive.
 */
export function mediaTypeOf(contentType: string | undefined): string | undefined {
  return contentType?.split(";", 1)[0]?.trim().toLowerCase();
}

/**
 * What Bolt's receiver assumes and does not check. It reads `body.ssl_check` from whatever the
 * request parses to, so a signed `null` (or `payload=null`) threw outside any handler and the
 * unhandled rejection ended the process; and it refuses timestamps too old but not too far ahead.
 */
export function screenSlackRequest(
  contentType: string | undefined,
  rawBody: string,
  timestampHeader: string | string[] | undefined,
  nowSeconds: number,
): Verdict {
  const timestamp = Number(timestampHeader);
  // A missing or stale timestamp is left to Bolt, which refuses it with the same 401.
  if (typeof timestampHeader === "string" && timestamp > nowSeconds + MAX_CLOCK_SKEW_SECONDS)
    return { ok: false, status: 401, reason: "timestamp in the future" };
  if (mediaTypeOf(contentType) === FORM) {
    const { payload, command, team_id: teamId } = parseQuery(rawBody);
    // A slash command names its workspace; without one nothing can be answered for it.
    if (payload === undefined && command !== undefined && (typeof teamId !== "string" || teamId === ""))
      return { ok: false, status: 400, reason: "slash command without a team_id" };
    if (payload === undefined) return OK;
    if (typeof payload === "string" && parsesToObject(payload)) return OK;
    return { ok: false, status: 400, reason: "payload is not a JSON object" };
  }
  if (parsesToObject(rawBody)) return OK;
  return { ok: false, status: 400, reason: "body is not a JSON object" };
}

async function screen(req: IncomingMessage, bodyLimit: number, now: () => number): Promise<Verdict> {
  let rawBody: Buffer;
  try {
    // Bolt reuses a body buffered here (it checks for req.rawBody) instead of reading it again.
    rawBody = (await HTTPModuleFunctions.bufferIncomingMessage(req, bodyLimit)).rawBody;
  } catch (error) {
    const tooLarge = HTTPModuleFunctions.isRawBodyError(error) && error.statusCode === 413;
    return tooLarge
      ? { ok: false, status: 413, reason: "body too large" }
      : { ok: false, status: 400, reason: "body could not be read" };
  }
  const contentType = req.headers["content-type"];
  // Bolt reads a body as a form only when the header is exactly this, else as JSON: a form with a
  // charset, or cased otherwise, would be refused as broken JSON.
  if (mediaTypeOf(contentType) === FORM) req.headers["content-type"] = FORM;
  return screenSlackRequest(
    contentType,
    rawBody.toString(),
    req.headers["x-slack-request-timestamp"],
    Math.floor(now() / 1000),
  );
}

/**
 * Puts a screen in front of the receiver's Slack endpoint: bodies Bolt would crash on and
 * timestamps from the future are refused before Bolt sees them, and a form's Content-Type is given
 * Bolt in the one spelling it reads. Other paths (probes, OAuth pages)
 * go straight through.
 */
export function guardSlackEndpoint(
  receiver: HTTPReceiver,
  options: { path: string; bodyLimit: number; logger: Logger; now?: () => number },
): void {
  const inner: RequestListener = receiver.requestListener;
  const now = options.now ?? Date.now;
  receiver.requestListener = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "").split("?", 1)[0];
    if (req.method !== "POST" || path !== options.path) return inner(req, res);
    screen(req, options.bodyLimit, now)
      .then((verdict) => {
        if (verdict.ok) return inner(req, res);
        options.logger.warn(
          { status: verdict.status, reason: verdict.reason },
          "refused a request to /slack/events",
        );
        res.writeHead(verdict.status).end();
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error }, "could not screen a request to /slack/events");
        if (!res.headersSent) res.writeHead(500).end();
      });
  };
}
