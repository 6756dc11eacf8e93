import { type OutsideKassaQuote, outsidePayoutMessage } from "../blocks/money-alerts.js";
import type { PayoffHistoryEntry } from "../payments/payoff-model.js";
import { kassaNeverSent, recordSentOutside, sentAtService } from "../payouts/outside.js";
import { PAYOUTS, REQUEST_FIELD, readRequest } from "../payouts/request-model.js";
import { registerOfKey } from "../store/registers.js";
import { PAYOUT_WATCH_FAMILY } from "./alerts.js";
import { checkClaimed, postAlertMessage } from "./claimed.js";
import type { MoneyAlertDeps } from "./deps.js";
import { newsChannel, recordOutside } from "./outside-news.js";
import {
  AUDITED_KEPT,
  type FollowedQuote,
  noted,
  readWatchState,
  type WatchRead,
  type WatchState,
  writeWatchState,
} from "./payout-watch-state.js";

// Payouts made outside Kassa. Every register whose Secret 2 Kassa stores is an item of family
// `payout-watch` (whether payouts are on, off or never set up: Secret 2 pays out all the same),
// checked by one replica at a time under its claim. A check reads the history newest first and goes
// back until it reaches the newest payout already seen AND has passed every quote it follows, however
// many fresh quotes stand in front; what one check's pages cannot reach is carried over to the next.
// A payout sent (on its way, paid or failed) that Kassa did not send is news: written to the audit
// trail, posted once, then noted as seen. A quote (`created`) moved no money and is followed; one
// cancelled never moved any and is only noted, so Kassa's own cancelled quotes are never news. A
// Kassa request's quote sent at the service by someone else is news too, and its request says so.
// The first read of a register only notes what is there.

const PAGE_ITEMS = 100;
/** Pages read per check (newest first): the register's read budget per check. */
const PAGES_PER_CHECK = 3;
/** A quote still `created` after this long is no longer followed (said in the log). */
const QUOTE_FOLLOWED_MS = 7 * 86_400_000;

/** Every connected register with Secret 2 is enlisted (keeping its schedule). */
export async function enlistRegisters(deps: MoneyAlertDeps, now: number): Promise<void> {
  for (const key of await deps.registers()) await deps.board.enlist(PAYOUT_WATCH_FAMILY, key, now);
}

/** What one check read: the settled payouts not seen (newest first), and the read's progress. */
type Reading = { fresh: PayoffHistoryEntry[]; read: WatchRead; done: boolean };

/**
 * Reads up to PAGES_PER_CHECK pages from `read.page`: done once the read has met `read.until` and
 * passed every quote the state follows (each one met again, still a quote or settled), or the history
 * ends.
 */
async function readOn(
  deps: MoneyAlertDeps,
  registerKey: string,
  state: WatchState,
  read: WatchRead,
  now: number,
): Promise<Reading> {
  const seen = new Set(state.ids);
  // Below `until` everything was seen when it was new: only a followed quote can have changed there.
  const since = new Map(state.quotes.map((quote) => [quote.id, quote.since]));
  const quotes = new Map(read.quotes.map((quote) => [quote.id, quote]));
  const fresh: PayoffHistoryEntry[] = [];
  let { page } = read;
  let met = read.met;
  for (let pages = 0; pages < PAGES_PER_CHECK; pages += 1) {
    const got = await deps.payments.payoffHistory(registerKey, page, PAGE_ITEMS);
    page += 1;
    for (const entry of got.entries) {
      if (entry.id === read.until) met = true;
      if (met && !since.has(entry.id)) continue;
      if (entry.state === "created")
        quotes.set(entry.id, { id: entry.id, since: since.get(entry.id) ?? now });
      else if (!seen.has(entry.id) && !fresh.some((one) => one.id === entry.id)) fresh.push(entry);
    }
    const passed = (quote: FollowedQuote) =>
      quotes.has(quote.id) || seen.has(quote.id) || fresh.some((one) => one.id === quote.id);
    const ended = got.entries.length < PAGE_ITEMS || got.hasNextPage === false;
    const next = { page, until: read.until, met, quotes: [...quotes.values()] };
    if (ended || (met && state.quotes.every(passed))) return { fresh, read: next, done: true };
    read = next;
  }
  return { fresh, read, done: false };
}

/** The quotes followed from now on: those still `created`, less those followed too long (logged). */
function stillFollowed(deps: MoneyAlertDeps, registerKey: string, quotes: FollowedQuote[], now: number) {
  const kept = quotes.filter((quote) => now - quote.since < QUOTE_FOLLOWED_MS);
  if (kept.length < quotes.length)
    deps.logger.info(
      { register: registerKey, dropped: quotes.length - kept.length },
      "payout watch: quotes still unsent after 7 days are no longer followed",
    );
  return kept;
}

/** One register's check, under its claim; returns when it is next due. */
export async function checkPayouts(
  deps: MoneyAlertDeps,
  registerKey: string,
  token: string,
  now: number,
): Promise<number> {
  const due = now + deps.payoutCheckMs;
  const state = await readWatchState(deps.board, registerKey);
  const empty: WatchState = { v: 2, ids: [], quotes: [] };
  const read = state?.read ?? { page: 1, until: state?.ids[0] ?? null, met: false, quotes: [] };
  let reading: Reading;
  try {
    reading = await readOn(deps, registerKey, state ?? empty, read, now);
  } catch (error) {
    deps.logger.warn({ register: registerKey, err: error }, "could not read the payout history");
    return due;
  }
  if (!state) {
    // The first read: what is there is noted, news only from now on.
    const first: WatchState = {
      ...empty,
      ids: reading.fresh.map((entry) => entry.id),
      quotes: reading.read.quotes,
    };
    if (await writeWatchState(deps.board, registerKey, token, first))
      deps.logger.info(
        { register: registerKey, noted: first.ids.length, quotes: first.quotes.length },
        "payout watch started: history noted",
      );
    return due;
  }
  let current: WatchState = { ...state, read: reading.read };
  // Oldest first, as they happened; each written down as soon as it is told, so a crash repeats none.
  for (const entry of [...reading.fresh].reverse()) {
    const next = await reportOne(deps, registerKey, entry, current, now);
    if (next === current) continue;
    if (!(await writeWatchState(deps.board, registerKey, token, next)))
      return lostClaim(deps, registerKey, due);
    current = next;
  }
  const { read: _read, ...rest } = current;
  const after: WatchState = reading.done
    ? { ...rest, quotes: stillFollowed(deps, registerKey, reading.read.quotes, now) }
    : current;
  if (!(await writeWatchState(deps.board, registerKey, token, after)))
    return lostClaim(deps, registerKey, due);
  // A read carried over goes on at the next pass rather than a whole interval later.
  return reading.done ? due : now;
}

function lostClaim(deps: MoneyAlertDeps, registerKey: string, due: number): number {
  deps.logger.warn({ register: registerKey }, "lost the payout watch's claim before noting what it saw");
  return due;
}

/**
 * Where Kassa's request stood when its quote was found sent outside; "kassa": Kassa sent it (or its
 * request is unreadable: nothing is said); undefined: not a request of Kassa's.
 */
async function kassaQuoteOf(
  deps: MoneyAlertDeps,
  entry: PayoffHistoryEntry,
  now: number,
): Promise<OutsideKassaQuote | "kassa" | undefined> {
  const stored = await PAYOUTS.read(deps.board, entry.id, REQUEST_FIELD);
  if (stored.raw !== undefined && !stored.value) {
    // A request of Kassa's that cannot be read: whether Kassa sent it is not known, so nothing is said.
    deps.logger.error({ payout: entry.id }, "payout watch: the Kassa request of a payout is unreadable");
    return "kassa";
  }
  if (!stored.value) return undefined;
  const read = { request: stored.value, raw: stored.raw };
  if (read.request.status !== "outside") {
    if (!kassaNeverSent(read)) return "kassa";
    await recordSentOutside(deps, entry.id, entry.state, now);
  }
  const after = (await readRequest(deps.board, entry.id))?.request ?? read.request;
  const was = after.outside?.was ?? read.request.status;
  // A mark of Kassa's own (submitting) is where a worker found it sent before its send: approved.
  const word =
    was === "waiting" ? "waiting" : was === "approved" || was === "submitting" ? "approved" : "ended";
  return { requester: read.request.requester, was: word };
}

/**
 * One settled payout not seen before. Cancelled (it moved no money) or sent by Kassa: only noted.
 * Otherwise written to the audit trail once (noted in `audited`; a Kassa request's quote by its
 * request's move to outside), posted, then noted as seen. A post that fails leaves it audited and
 * unseen, for the next check; with no channel to post in, the audit entry is all.
 */
async function reportOne(
  deps: MoneyAlertDeps,
  registerKey: string,
  entry: PayoffHistoryEntry,
  state: WatchState,
  now: number,
): Promise<WatchState> {
  if (!sentAtService(entry.state)) return noted(state, entry.id);
  const kassa = await kassaQuoteOf(deps, entry, now);
  if (kassa === "kassa") return noted(state, entry.id);
  const audited = state.audited ?? [];
  let after = state;
  if (!audited.includes(entry.id)) {
    if (!kassa) await recordOutside(deps, registerKey, entry, now);
    after = { ...state, audited: [entry.id, ...audited].slice(0, AUDITED_KEPT) };
  }
  const { team } = registerOfKey(registerKey);
  const channel = await newsChannel(deps, registerKey, team);
  if (!channel) {
    deps.logger.warn(
      { register: registerKey, payout: entry.id },
      "a payout made outside Kassa: no approval or audit channel to post it in (audited only)",
    );
    return noted(after, entry.id);
  }
  const message = outsidePayoutMessage(entry, await deps.languageOf(team), kassa);
  return (await postAlertMessage(deps, team, channel, message)) ? noted(after, entry.id) : after;
}

/** Runs the due registers' payout checks, each under its claim. */
export function runPayoutChecks(deps: MoneyAlertDeps, now: number): Promise<number> {
  return checkClaimed(deps, PAYOUT_WATCH_FAMILY, now, deps.payoutCheckMs, (key, token, at) =>
    checkPayouts(deps, key, token, at),
  );
}
