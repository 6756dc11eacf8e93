import type { webApi } from "@slack/bolt";
import type { SlackMessage } from "../blocks/message.js";
import { type CardReader, cardKeyOf, payoutCardMessage, payoutEndNote } from "../blocks/payout-card.js";
import { PAYOUT_NOTES_TEXT } from "../i18n/payout-notes.js";
import { slackErrorCode } from "../slack/error.js";
import type { ClaimBoard } from "../store/claims/index.js";
import type { Logger } from "../util/logger.js";
import { type PayoutNotice, type ReadNotice, readNotice, swapNotice } from "./notice-model.js";
import { FINAL_STATUSES, type PayoutRequest, readRequest } from "./request-model.js";

// Delivering what a request's notice owes: its card and the requester's copy posted once and then
// updated to what the request says (chat.update: a repeat is harmless), and at its end one note in
// the card's thread and one to the requester. Posting (not idempotent in Slack) is done only by a
// holder of the request: the one who made it, or the worker under its claim; anyone may update.
// What is posted is written down right after Slack takes it; a crash in between posts it again.

export type NoticeDeps = {
  board: ClaimBoard;
  /** The workspace's Slack client; undefined when Kassa is not installed there (nothing can be told). */
  slack(team: string): Promise<webApi.WebClient | undefined>;
  logger: Logger;
};

/** "done": the notice shows the request; "owed": something is still to be told (try again later). */
export type Shown = "done" | "owed";

type Patch = (notice: PayoutNotice) => PayoutNotice | undefined;

/** Applies `patch` to the notice as stored now (compare-and-set, a few tries); false when it never landed. */
async function patchNotice(board: ClaimBoard, id: string, patch: Patch): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const read = await readNotice(board, id);
    const next = read && patch(read.notice);
    if (!read || !next) return false;
    if (await swapNotice(board, id, read, next)) return true;
  }
  return false;
}

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
    return patchNotice(deps.board, request.id, (now) =>
      reader === "approvers"
        ? { ...now, card: now.card ?? at, cardShows: key }
        : { ...now, copy: now.copy ?? at, copyShows: key },
    );
  } catch (error) {
    deps.logger.warn(
      { team: request.team, payout: request.id, card: reader, slackError: slackErrorCode(error) },
      "payout card not shown: tried again later",
    );
    return false;
  }
}

/** The end's notes: in the card's thread, and to the requester by direct message; false if one is owed. */
async function tellEnd(
  deps: NoticeDeps,
  slack: webApi.WebClient,
  request: PayoutRequest,
  notice: PayoutNotice,
): Promise<boolean> {
  const note = payoutEndNote(request, notice.lang);
  if (!note) return true;
  const t = PAYOUT_NOTES_TEXT[notice.lang];
  const notes: Array<{ to: "thread" | "requester"; channel: string; text: string; thread?: string }> = [];
  if (notice.card && !notice.told.includes("thread"))
    notes.push({ to: "thread", channel: notice.card.channel, text: note, thread: notice.card.ts });
  if (!notice.told.includes("requester"))
    notes.push({
      to: "requester",
      channel: request.requester,
      text: `${t.toRequester(`<#${notice.channel}>`)}\n${note}`,
    });
  let all = true;
  for (const one of notes) {
    try {
      await slack.chat.postMessage({
        channel: one.channel,
        text: one.text,
        ...(one.thread ? { thread_ts: one.thread } : {}),
        unfurl_links: false,
      });
      all =
        (await patchNotice(deps.board, request.id, (now) => ({
          ...now,
          told: [...new Set([...now.told, one.to])],
        }))) && all;
    } catch (error) {
      deps.logger.warn(
        { team: request.team, payout: request.id, note: one.to, slackError: slackErrorCode(error) },
        "payout note not sent: tried again later",
      );
      all = false;
    }
  }
  return all && notice.card !== undefined;
}

/**
 * Shows request `id` as it stands: both cards posted (when `mayPost`) or updated, and at its end the
 * notes told (when `mayPost`). "owed" when something could not be done now.
 */
export async function showPayout(deps: NoticeDeps, id: string, mayPost: boolean): Promise<Shown> {
  let shown: Shown = "done";
  // A click and the worker may update a card at the same moment: whoever finishes looks once more,
  // so an older state Slack took last is replaced by the newest.
  for (let round = 0; round < 2; round += 1) {
    const request = (await readRequest(deps.board, id))?.request;
    if (!request) return shown;
    shown = await showOnce(deps, request, mayPost);
    const now = (await readRequest(deps.board, id))?.request;
    if (!now || cardKeyOf(now) === cardKeyOf(request)) break;
  }
  return shown;
}

async function showOnce(deps: NoticeDeps, request: PayoutRequest, mayPost: boolean): Promise<Shown> {
  const first = await readNotice(deps.board, request.id);
  if (!first) return "done";
  const slack = await deps.slack(request.team);
  if (!slack) return "done";
  let owed = !(await showCard(deps, slack, request, first, "approvers", mayPost));
  const second = (await readNotice(deps.board, request.id)) ?? first;
  owed = !(await showCard(deps, slack, request, second, "requester", mayPost)) || owed;
  if (FINAL_STATUSES.has(request.status)) {
    if (!mayPost) return "owed";
    const last = (await readNotice(deps.board, request.id)) ?? second;
    owed = !(await tellEnd(deps, slack, request, last.notice)) || owed;
  }
  return owed ? "owed" : "done";
}
