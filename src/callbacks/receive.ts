import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallbackKeys } from "../store/callback-keys.js";
import { registerOfKey } from "../store/registers.js";
import type { Logger } from "../util/logger.js";
import type { RefusalSummary } from "../util/refusal-summary.js";
import { CALLBACK_BODY_LIMIT_BYTES, parseCallback } from "./payload.js";
import { signatureMatches } from "./signature.js";

/** The path the payment service posts to; the last part is the workspace's random key. */
export const CALLBACK_PATH_PREFIX = "/crystalpay/callback/";

export type CallbackDeps = {
  keys: Pick<CallbackKeys, "teamOf">;
  /** The workspace's Secret 2, opened; undefined when it has none (then it has no address either). */
  saltOf(teamId: string): Promise<string | undefined>;
  /** Read the invoice again and tell Slack what changed (cards, thread notes, feed). Never throws. */
  nudge(teamId: string, invoiceId: string): Promise<void>;
  /**
   * A payout's callback (its address ends in PAYOUT_CALLBACK_QUERY) on `registerKey`'s address: the
   * worker reads it now, if it is that register's payout. Never throws.
   */
  nudgePayout(registerKey: string, payoutId: string): Promise<void>;
  logger: Logger;
  /** Where refused callbacks are counted; the log gets a summary, never a line each. */
  refusals: Pick<RefusalSummary, "count">;
};

/** Added to a register's address for payouts: the same key and signature, another thing to read again. */
export const PAYOUT_CALLBACK_QUERY = "?kind=payout";

type Verdict =
  | { status: 200; teamId: string; invoiceId: string; payout: boolean }
  | { status: 400 | 403 | 404 | 405 | 413 | 503; reason: string; teamId?: string };

class BodyTooLarge extends Error {}

async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The key part of the path, %-escapes decoded; undefined when they cannot be (the sender's mistake). */
export function keyInPath(url: string): string | undefined {
  const raw = url.split("?", 1)[0]?.slice(CALLBACK_PATH_PREFIX.length) ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/**
 * Checks a callback before anything else: the key (404 when unknown), then the body and its
 * signature (403 when missing or wrong). Nothing is read from the payment service and nothing
 * changes unless the signature is right.
 */
export async function judgeCallback(req: IncomingMessage, deps: CallbackDeps): Promise<Verdict> {
  if (req.method !== "POST") return { status: 405, reason: "not a POST" };
  const key = keyInPath(req.url ?? "");
  if (key === undefined) return { status: 400, reason: "malformed address" };
  let teamId: string | undefined;
  let salt: string | undefined;
  try {
    teamId = await deps.keys.teamOf(key);
    salt = teamId === undefined ? undefined : await deps.saltOf(teamId);
  } catch {
    // The store is down: the service retries a callback it could not deliver (as far as is known).
    return { status: 503, reason: "store unavailable" };
  }
  if (teamId === undefined || salt === undefined) return { status: 404, reason: "unknown callback address" };
  let body: string;
  try {
    body = await readBody(req, CALLBACK_BODY_LIMIT_BYTES);
  } catch (error) {
    if (error instanceof BodyTooLarge) return { status: 413, reason: "body too large", teamId };
    return { status: 400, reason: "body could not be read", teamId };
  }
  const parsed = parseCallback(req.headers["content-type"], body);
  if (!parsed.ok) return { status: 403, reason: parsed.reason, teamId };
  if (!signatureMatches(parsed.callback.invoiceId, parsed.callback.signature, salt))
    return { status: 403, reason: "wrong signature", teamId };
  const payout = (req.url ?? "").endsWith(PAYOUT_CALLBACK_QUERY);
  return { status: 200, teamId, invoiceId: parsed.callback.invoiceId, payout };
}

/**
 * The route: answers at once, then (for a valid callback only) has the invoice read again. The body
 * proves only which invoice to look at; what Slack is told comes from invoice/info. The same
 * invoice nudged again while a nudge is under way joins it.
 */
export function callbackListener(deps: CallbackDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const inFlight = new Map<string, Promise<void>>();
  return (req, res) => {
    void judgeCallback(req, deps).then(
      (verdict) => {
        res.writeHead(verdict.status, { "content-type": "text/plain; charset=utf-8" });
        res.end(verdict.status === 200 ? "OK" : verdict.reason);
        if (verdict.status !== 200) {
          // Counted, and summed up in the log once a minute (per workspace, and for unknown
          // addresses): a thousand bad signatures a second must not become a thousand lines.
          deps.refusals.count(verdict.teamId, verdict.reason);
          if (!req.complete) req.resume();
          return;
        }
        const thing = verdict.payout ? "payout" : "invoice";
        deps.logger.info(
          { outcome: "callback_accepted", teamId: verdict.teamId, [thing]: verdict.invoiceId },
          `payment service callback: reading the ${thing} again`,
        );
        const id = `${verdict.teamId}:${thing}:${verdict.invoiceId}`;
        if (inFlight.has(id)) return;
        const nudged = verdict.payout
          ? deps.nudgePayout(verdict.teamId, verdict.invoiceId)
          : deps.nudge(verdict.teamId, verdict.invoiceId);
        const work = nudged.finally(() => inFlight.delete(id));
        inFlight.set(id, work);
      },
      (error: unknown) => {
        // Not the sender's doing: Kassa's own fault, so a line of its own.
        deps.logger.error({ err: error }, "could not judge a payment service callback");
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  };
}

/**
 * A payment notification is a hint to look again, never a source of truth: the watcher reads
 * invoice/info itself, within the register's budget, and tells Slack only what that answer says.
 */
export function nudgeLiveWork(
  feedRunner: { checkSoon(teamId: string): void },
  watcher: { checkSoon(teamId: string, invoiceId: string): Promise<boolean> },
  logger: Logger,
): CallbackDeps["nudge"] {
  return async (registerKeyOf, invoiceId) => {
    // A callback address is a register's: its live cards are kept under the workspace's team id.
    const teamId = registerOfKey(registerKeyOf).team;
    try {
      // The feed reads the register's history now too (its announcements stay once-only).
      feedRunner.checkSoon(registerKeyOf);
      const watched = await watcher.checkSoon(teamId, invoiceId);
      logger.info(
        { outcome: watched ? "callback_nudged" : "callback_unwatched", teamId, invoice: invoiceId },
        watched ? "live cards of the invoice are read again now" : "no live card watches this invoice",
      );
    } catch (error) {
      logger.warn({ err: error, teamId, invoice: invoiceId }, "could not act on a payment notification");
    }
  };
}
