import type { webApi } from "@slack/bolt";
import { rowStateOf } from "../blocks/payout-batch.js";
import { csvRecord, UTF8_BOM } from "../exports/csv.js";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_BATCH_TEXT } from "../i18n/payout-batch.js";
import type { NoteHolder } from "../payouts/end-notes.js";
import { slackErrorCode } from "../slack/error.js";
import { isChannelGone, isPersonGoneCode, retryAfterMsOf, slackFailureOfCode } from "../slack/failures.js";
import { directChannel, UploadError, uploadFile } from "../slack/files.js";
import { BATCH_FINAL, type Batch, type BatchCard, readBatch, readBatchCard, type ToldTo } from "./model.js";
import { type BatchShowDeps, batchView, patchCard } from "./show.js";

// A batch's end told once in each place, under the follower's claim (checked just before each): an
// ended batch's result file in its card's thread and to its requester; a batch whose card the
// approval channel refused, a note to its requester saying why. Each place is written down once
// Slack took it (a crash between Slack's answer and the note tells that one again), or once Slack
// refused it for good (the channel gone, the person deactivated): one place never waits for the other.

/** All told (or never can be); or not, and when Slack asked to be tried again, if it did. */
export type ResultTold = { told: boolean; retryInMs?: number };

/** The result file: each row's payout id, its state and the service's message (or why it was refused). */
export function resultCsv(view: Awaited<ReturnType<typeof batchView>>, lang: Lang): string {
  const t = PAYOUT_BATCH_TEXT[lang];
  const header = [
    "row",
    "recipient",
    "method",
    "wallet",
    "amount",
    "currency",
    "payout_id",
    "state",
    "message",
  ];
  let text = UTF8_BOM + csvRecord(header);
  for (const row of view.batch.rows) {
    const request = row.payout ? view.rows.get(row.payout) : undefined;
    const state = row.dropped ? "dropped" : row.refusal ? "refused" : rowStateOf(request);
    const refused = row.refusal && t.refused[row.refusal.kind](row.refusal.words.join("; "));
    const message = refused ?? request?.refusal?.join("; ") ?? request?.service?.message ?? "";
    // A row without a quote: its amount as pasted, in its method's currency where the balance tied it.
    const currency =
      row.quote?.currency ?? view.batch.balances.find((one) => one.method === row.method)?.currency ?? "";
    text += csvRecord([
      String(row.row),
      row.recipient?.label ?? row.label ?? "",
      row.method,
      row.wallet,
      currency ? (row.quote?.amount ?? row.amount) : "",
      currency,
      row.payout ?? "",
      state,
      message,
    ]);
  }
  return text;
}

/** One place's telling: done (told, or refused for good), or owed (after `retryInMs` when Slack said). */
type Outcome = { done: true } | { done: false; retryInMs?: number };

/** Slack did not take the end for `to`: written down when it never will (not tried again), else owed. */
async function notTold(
  deps: BatchShowDeps,
  id: string,
  to: ToldTo,
  places: readonly ToldTo[],
  error: unknown,
  at: Date,
): Promise<Outcome> {
  const code = error instanceof UploadError ? error.slackError : slackErrorCode(error);
  const failure = slackFailureOfCode(code);
  const never = to === "thread" ? isChannelGone(failure) || failure === "restricted" : isPersonGoneCode(code);
  if (!never) {
    deps.logger.warn({ batch: id, to, slackError: code }, "batch end not told: tried again later");
    const retryInMs = error instanceof UploadError ? error.retryAfterMs : retryAfterMsOf(error);
    return retryInMs === undefined ? { done: false } : { done: false, retryInMs };
  }
  const unsent = { to, code: code.slice(0, 100), at: at.toISOString() };
  const stored = await patchCard(deps, id, (now) => ({
    ...now,
    unsent: [...(now.unsent ?? []).filter((one) => one.to !== to), unsent],
  }));
  const reached = places.filter(
    (one) => stored?.told.includes(one) || !stored?.unsent?.some((gone) => gone.to === one),
  );
  const log = { batch: id, to, slackError: code };
  if (reached.length > 0) deps.logger.warn(log, "batch end not told there: Slack refused it for good");
  else deps.logger.error(log, "batch end told nowhere: Slack refused every place for good");
  return { done: true };
}

/** Tells `to` with `send`, and writes down what came of it. */
async function tellOne(
  deps: BatchShowDeps,
  id: string,
  to: ToldTo,
  places: readonly ToldTo[],
  at: Date,
  send: () => Promise<unknown>,
): Promise<Outcome> {
  try {
    await send();
  } catch (error) {
    return notTold(deps, id, to, places, error, at);
  }
  await patchCard(deps, id, (now) => ({ ...now, told: [...new Set([...now.told, to])] }));
  return { done: true };
}

/** What an ended batch's result file, or an unshown batch's note, sends to `to`. */
function senderOf(
  slack: webApi.WebClient,
  batch: Batch,
  card: BatchCard,
  view: Awaited<ReturnType<typeof batchView>>,
) {
  const t = PAYOUT_BATCH_TEXT[card.lang];
  return async (to: ToldTo) => {
    if (card.refused) {
      const { why } = card.refused;
      const channel = `<#${card.channel}>`;
      const fix = why === "not_in_channel" ? t.unshownFix.invite(channel) : t.unshownFix.setup;
      const text = t.unshown(view.batch.rows.length, channel, t.unshownBecause[why], fix);
      await slack.chat.postMessage({ channel: batch.requester, text, unfurl_links: false });
      return;
    }
    const paid = [...view.rows.values()].filter((request) => rowStateOf(request) === "paid").length;
    const thread = to === "thread" && card.card ? card.card : undefined;
    await uploadFile(slack, {
      bytes: Buffer.from(resultCsv(view, card.lang), "utf8"),
      filename: `batch-${batch.id}.csv`,
      title: t.resultTitle,
      comment: t.resultComment(view.rows.size, paid),
      channel: thread ? thread.channel : await directChannel(slack, batch.requester),
      ...(thread ? { threadTs: thread.ts } : {}),
    });
  };
}

/**
 * A final batch's end, each place told once: an ended one's result file in its card's thread and to
 * its requester; one whose card its channel refused, the requester's note. The thread waits for the
 * card; the requester does not.
 */
export async function tellResult(
  deps: BatchShowDeps,
  id: string,
  at: Date,
  holder?: NoteHolder,
): Promise<ResultTold> {
  const batch = await readBatch(deps.board, id);
  const card = await readBatchCard(deps.board, id);
  if (!batch || !card) return { told: true };
  const unshown = card.refused !== undefined && !card.card && BATCH_FINAL.has(batch.status);
  if (batch.status !== "ended" && !unshown) return { told: true };
  const places: ToldTo[] = unshown ? ["requester"] : ["thread", "requester"];
  const owed = places.filter((to) => !card.told.includes(to) && !card.unsent?.some((one) => one.to === to));
  if (owed.length === 0) return { told: true };
  const slack = await deps.slack(batch.team);
  if (!slack) return { told: false };
  const send = senderOf(slack, batch, card, await batchView(deps, batch, card));
  let told = true;
  let retryInMs: number | undefined;
  for (const to of owed) {
    if (to === "thread" && !card.card) {
      told = false;
      continue;
    }
    // A follower whose claim ran out leaves the rest to the holder.
    if (holder && !(await holder.holds())) return { told: false };
    const outcome = await tellOne(deps, id, to, places, at, () => send(to));
    if (outcome.done) continue;
    told = false;
    if (outcome.retryInMs !== undefined)
      retryInMs = Math.min(retryInMs ?? outcome.retryInMs, outcome.retryInMs);
  }
  return retryInMs === undefined ? { told } : { told, retryInMs };
}
