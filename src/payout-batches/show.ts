import { createHash } from "node:crypto";
import type { webApi } from "@slack/bolt";
import { batchCardMessage } from "../blocks/payout-batch-card.js";
import { readRows } from "../payouts/batch-rows.js";
import type { NoteHolder, NoticeDeps } from "../payouts/end-notes.js";
import { slackErrorCode } from "../slack/error.js";
import { classifySlackFailure, retryAfterMsOf } from "../slack/failures.js";
import { methodTotals } from "./checks.js";
import {
  BATCH_FAMILY,
  BATCHES,
  type Batch,
  type BatchCard,
  batchTotal,
  CARD_FIELD,
  type CardRefusal,
  readBatch,
  readBatchCard,
} from "./model.js";

// Telling Slack about a batch: its one card posted once (by its maker, or the follower under the
// batch's claim, checked just before the post) and updated to what the batch and its rows say (a
// repeat is harmless). A post the approval channel refuses for good is written down (the follower
// ends the batch and tells its requester why); at its end, result.ts tells the result file.

export type BatchShowDeps = NoticeDeps;

/**
 * Not owed: the card shows the batch (or never can). Owed: tried again by the follower, after
 * `retryInMs` when Slack said when. `refused`: the approval channel refused the card for good.
 */
export type BatchShown = { owed: boolean; retryInMs?: number; refused?: NonNullable<BatchCard["refused"]> };

/** The batch as its card shows it: its rows' requests read now, its figures per method. */
export async function batchView(deps: Pick<NoticeDeps, "board">, batch: Batch, card: BatchCard) {
  const ids = batch.rows.flatMap((row) => (row.payout ? [row.payout] : []));
  const rows = await readRows(deps, ids);
  const kept = batch.rows.filter((row) => row.payout && !row.dropped);
  return { batch, card, rows, totals: methodTotals(kept, batch.balances), total: batchTotal(batch) };
}

/** The card's state changed by `patch` (compare-and-set); the state stored, undefined when none. */
export async function patchCard(
  deps: Pick<NoticeDeps, "board">,
  id: string,
  patch: (card: BatchCard) => BatchCard,
): Promise<BatchCard | undefined> {
  return BATCHES.update(deps.board, id, CARD_FIELD, (stored) => {
    if (!stored.value) return { result: undefined };
    const next = patch(stored.value);
    return { next, result: next };
  });
}

/** A refusal Slack will give again until people change something (src/slack/failures.ts). */
function refusalOf(error: unknown): CardRefusal | undefined {
  const failure = classifySlackFailure(error);
  return failure === "not_in_channel" || failure === "archived" || failure === "restricted"
    ? failure
    : undefined;
}

/**
 * Shows batch `id` as it stands: its card posted (when `mayPost`, and not posted yet; under the
 * follower's claim, `holder`, checked just before) or updated. A card its channel refused is never
 * posted there again.
 */
export async function showBatch(
  deps: BatchShowDeps,
  id: string,
  mayPost: boolean,
  at: Date,
  holder?: NoteHolder,
): Promise<BatchShown> {
  const batch = await readBatch(deps.board, id);
  const card = await readBatchCard(deps.board, id);
  if (!batch || !card || batch.status === "quoting") return { owed: false };
  if (card.refused && !card.card) return { owed: false, refused: card.refused };
  const slack = await deps.slack(batch.team);
  if (!slack) return { owed: false };
  const message = batchCardMessage(await batchView(deps, batch, card), card.lang);
  const key = createHash("sha1").update(JSON.stringify(message)).digest("hex").slice(0, 16);
  if (card.card && card.shows === key) return { owed: false };
  if (!card.card && !mayPost) return { owed: true };
  // A follower whose claim ran out (Slack slow for its earlier batches) leaves the post to the holder.
  if (!card.card && holder && !(await holder.holds())) return { owed: true };
  try {
    const posted = card.card
      ? await slack.chat.update({ channel: card.card.channel, ts: card.card.ts, ...message })
      : await slack.chat.postMessage({ channel: card.channel, ...message, unfurl_links: false });
    const where = {
      channel: String(posted.channel ?? card.card?.channel),
      ts: String(posted.ts ?? card.card?.ts),
    };
    await patchCard(deps, id, (now) => ({ ...now, card: now.card ?? where, shows: key }));
    return { owed: false };
  } catch (error) {
    return notShown(deps, id, card, error, at);
  }
}

/** What Slack's refusal leaves owed: a post refused for good is written down, an update let be. */
async function notShown(
  deps: BatchShowDeps,
  id: string,
  card: BatchCard,
  error: unknown,
  at: Date,
): Promise<BatchShown> {
  const slackError = slackErrorCode(error);
  const refusal = refusalOf(error);
  if (refusal && !card.card) {
    const mark = { why: refusal, code: slackError.slice(0, 100), at: at.toISOString() };
    const stored = await patchCard(deps, id, (now) =>
      now.card || now.refused ? now : { ...now, refused: mark },
    );
    deps.logger.warn(
      { batch: id, channel: card.channel, slackError },
      "batch card refused by its approval channel: the batch ends unshown, its requester told",
    );
    if (stored?.card) return { owed: false };
    return { owed: false, refused: stored?.refused ?? mark };
  }
  // The channel gone or the card deleted: updated again when the batch moves, not every retry.
  if (card.card && (refusal || classifySlackFailure(error) === "message_gone")) {
    deps.logger.warn({ batch: id, slackError }, "batch card not updated: Slack refused it");
    return { owed: false };
  }
  deps.logger.warn({ batch: id, slackError }, "batch card not shown: tried again later");
  const retryInMs = retryAfterMsOf(error);
  return retryInMs === undefined ? { owed: true } : { owed: true, retryInMs };
}

/**
 * A batch just quoted, or just decided: its card posted (when `mayPost`) or updated with the
 * clicker's client; the batch due now, so the follower posts what Slack did not take, ends one its
 * channel refused, sends its rows or tells its end under its claim.
 */
export async function announceBatch(
  deps: Pick<NoticeDeps, "board" | "logger">,
  client: webApi.WebClient,
  id: string,
  now: Date,
  mayPost = true,
): Promise<void> {
  await showBatch({ ...deps, slack: async () => client }, id, mayPost, now);
  await deps.board.nudge(BATCH_FAMILY, id, now.getTime());
}
