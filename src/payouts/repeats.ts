import { createHash, randomUUID } from "node:crypto";
import type { ClaimBoard } from "../store/claims/index.js";
import { sometimes } from "../store/connection.js";

// A one-line `/payout` sent twice (a double Enter: the same person, the same text, seconds apart) is
// requested once. The first claims the line on the claim board (family LINE_FAMILY, key = register,
// person and a digest of the exact text) for REPEAT_WINDOW_MS, and writes down how it went under that
// claim; a repeat within the window finds the claim held and is pointed at the first. Such items live
// only while held: the family is swept now and then (Redis lets them expire).

export const LINE_FAMILY = "payout-line";
const OUTCOME_FIELD = "outcome";
/** How long the same line from the same person counts as a repeat. */
export const REPEAT_WINDOW_MS = 10_000;

/** How the first of a repeated line went: requested (its payout and channel), or refused. */
export type LineOutcome = { kind: "requested"; id: string; channel: string } | { kind: "refused" };

export type LineClaim =
  | { first: true; key: string; token: string; at: string }
  /** `earlier` undefined: the first is still under way. */
  | { first: false; earlier: LineOutcome | undefined };

/** The line's key: the register, the person and the exact text (a digest of it). */
export function lineKey(registerKey: string, user: string, text: string): string {
  const digest = createHash("sha256").update(text).digest("base64url").slice(0, 32);
  return `${registerKey}:${user}:${digest}`;
}

function outcomeOf(raw: unknown, at: string | undefined): LineOutcome | undefined {
  if (typeof raw !== "object" || raw === null || !("at" in raw) || raw.at !== at) return undefined;
  if ("kind" in raw && raw.kind === "refused") return { kind: "refused" };
  if ("id" in raw && "channel" in raw && typeof raw.id === "string" && typeof raw.channel === "string")
    return { kind: "requested", id: raw.id, channel: raw.channel };
  return undefined;
}

/** Claims the line for the window: the first, or a repeat with how the first went (if known yet). */
export async function claimLine(
  { board }: { board: ClaimBoard },
  key: string,
  now: Date,
): Promise<LineClaim> {
  if (sometimes()) await board.sweep(LINE_FAMILY, now.getTime());
  const token = `line:${randomUUID()}`;
  const at = now.toISOString();
  const claim = await board.claimKey(LINE_FAMILY, key, token, now.getTime(), REPEAT_WINDOW_MS, at);
  if (claim.held) return { first: true, key, token, at };
  // The outcome written under the claim that holds the line now (one of an older claim is not its).
  const raw = await board.readState(LINE_FAMILY, key, OUTCOME_FIELD);
  return { first: false, earlier: outcomeOf(raw, claim.info) };
}

/** Writes down how the first went, while its claim holds (a repeat after the window finds nothing). */
export async function noteLine(
  { board }: { board: ClaimBoard },
  claim: Extract<LineClaim, { first: true }>,
  outcome: LineOutcome,
): Promise<void> {
  await board.writeState(LINE_FAMILY, claim.key, OUTCOME_FIELD, claim.token, { ...outcome, at: claim.at });
}
