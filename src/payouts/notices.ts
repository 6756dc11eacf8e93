import type { webApi } from "@slack/bolt";
import type { SlackMessage } from "../blocks/message.js";
import { type CardReader, cardKeyOf, payoutCardMessage } from "../blocks/payout-card.js";
import { slackErrorCode } from "../slack/error.js";
import { type NoteHolder, type NoticeDeps, tellEnd } from "./end-notes.js";
import type { PayoutNotice } from "./notice-model.js";
import { patchNotice, type ReadNotice, readNotice } from "./notice-store.js";
import { FINAL_STATUSES, PAYOUT_FAMILY, type PayoutRequest, readRequest } from "./request-model.js";

// Delivering what a request's notice owes: its card and the requester's copy posted once and then
// updated to what the request says (chat.update: a repeat is harmless), and at its end one note in
// the card's thread and one to the requester (end-notes.ts). Posting (not idempotent in Slack) is
// done only by a holder of the request: the one who made it (its cards), or the worker under its
// claim (cards and notes); anyone may update. A card posted is written down right after Slack takes
// it; a crash in between posts it again.

export type { NoticeDeps };

/**
 * Not owed: the notice shows the request. Owed: something is still to be told (try again later,
 * after `retryInMs` when Slack said when).
 */
export type Shown = { owed: false } | { owed: true; retryInMs?: number };

function messageOf(request: PayoutRequest, notice: PayoutNotice, reader: CardReader): SlackMessage {
  return payoutCardMessage(request, notice, reader, notice.lang);
}

/** Posts or updates one of the two cards; false when Slack did not take it (still owed). */
async function showCard(
  deps: NoticeDeps,
  slack: webApi.WebClient,
  request: PayoutRequest,
  read: ReadNotice,
  reader: CardReader,
  mayPost: boolean,
): Promise<boolean> {
  const { notice } = read;
  const where = reader === "approvers" ? notice.card : notice.copy;
  const shows = reader === "approvers" ? notice.cardShows : notice.copyShows;
  const key = cardKeyOf(request);
  if (where && shows === key) return true;
  if (!where && !mayPost) return false;
  const { text, blocks } = messageOf(request, notice, reader);
  try {
    const posted = where
      ? await slack.chat.update({ channel: where.channel, ts: where.ts, text, blocks })
      : await slack.chat.postMessage({
          channel: reader === "approvers" ? notice.channel : notice.requester,
          text,
          blocks,
          unfurl_links: false,
        });
    const at = { channel: String(posted.channel ?? where?.channel), ts: String(posted.ts ?? where?.ts) };
    const patched = await patchNotice(deps.board, request.id, (now) =>
      reader === "approvers"
        ? { ...now, card: now.card ?? at, cardShows: key }
        : { ...now, copy: now.copy ?? at, copyShows: key },
    );
    return patched !== undefined;
  } catch (error) {
    deps.logger.warn(
      { team: request.team, payout: request.id, card: reader, slackError: slackErrorCode(error) },
      "payout card not shown: tried again later",
    );
    return false;
  }
}

/**
 * Shows request `id` as it stands: both cards posted (when `mayPost`) or updated, and at its end the
 * notes told (only by `holder`, the worker holding its claim). Owed when something could not be done now.
 */
export async function showPayout(
  deps: NoticeDeps,
  id: string,
  mayPost: boolean,
  holder?: NoteHolder,
): Promise<Shown> {
  let shown: Shown = { owed: false };
  // A click and the worker may update a card at the same moment: whoever finishes looks once more,
  // so an older state Slack took last is replaced by the newest.
  for (let round = 0; round < 2; round += 1) {
    const request = (await readRequest(deps.board, id))?.request;
    if (!request) return shown;
    shown = await showOnce(deps, request, mayPost, holder);
    const now = (await readRequest(deps.board, id))?.request;
    if (!now || cardKeyOf(now) === cardKeyOf(request)) break;
  }
  return shown;
}

async function showOnce(
  deps: NoticeDeps,
  request: PayoutRequest,
  mayPost: boolean,
  holder: NoteHolder | undefined,
): Promise<Shown> {
  const first = await readNotice(deps.board, request.id);
  if (!first) return { owed: false };
  const slack = await deps.slack(request.team);
  if (!slack) return { owed: false };
  let owed = !(await showCard(deps, slack, request, first, "approvers", mayPost));
  const second = (await readNotice(deps.board, request.id)) ?? first;
  owed = !(await showCard(deps, slack, request, second, "requester", mayPost)) || owed;
  if (!FINAL_STATUSES.has(request.status)) return { owed };
  if (!mayPost || !holder) return { owed: true };
  const last = (await readNotice(deps.board, request.id)) ?? second;
  const notes = await tellEnd(deps, slack, request, last.notice, holder);
  if (notes.told) return { owed };
  return notes.retryInMs === undefined ? { owed: true } : { owed: true, retryInMs: notes.retryInMs };
}

/** The payouts' part of telling Slack now, from a handler that has the clicker's own client. */
export type ShowNowDeps = Pick<NoticeDeps, "board" | "logger">;

/**
 * A request just made: its cards posted with the requester's client; when Slack did not take one,
 * the request made due now, so the worker posts it.
 */
export async function announceRequest(
  deps: ShowNowDeps,
  client: webApi.WebClient,
  id: string,
  now: Date,
): Promise<void> {
  const shown = await showPayout({ ...deps, slack: async () => client }, id, true);
  if (shown.owed) await deps.board.nudge(PAYOUT_FAMILY, id, now.getTime());
}

/**
 * After a vote or a cancel: the cards updated at once with the clicker's client (a repeat is
 * harmless), and the request made due now, so the worker sends it, cancels its quote or tells its
 * end under its claim.
 */
export async function showAfterClick(
  deps: ShowNowDeps,
  client: webApi.WebClient,
  id: string,
  now: Date,
): Promise<void> {
  await showPayout({ ...deps, slack: async () => client }, id, false);
  await deps.board.nudge(PAYOUT_FAMILY, id, now.getTime());
}
