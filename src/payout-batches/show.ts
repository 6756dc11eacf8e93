import { createHash } from "node:crypto";
import type { webApi } from "@slack/bolt";
import { rowStateOf } from "../blocks/payout-batch.js";
import { batchCardMessage } from "../blocks/payout-batch-card.js";
import { csvRecord, UTF8_BOM } from "../exports/csv.js";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_BATCH_TEXT } from "../i18n/payout-batch.js";
import { readRows } from "../payouts/batch-rows.js";
import type { NoticeDeps } from "../payouts/end-notes.js";
import { slackErrorCode } from "../slack/error.js";
import { directChannel, uploadFile } from "../slack/files.js";
import { methodTotals } from "./checks.js";
import {
  BATCH_FAMILY,
  BATCHES,
  type Batch,
  type BatchCard,
  batchTotal,
  CARD_FIELD,
  readBatch,
  readBatchCard,
} from "./model.js";

// Telling Slack about a batch: its one card posted once (by its maker, or the follower under the
// batch's claim) and updated to what the batch and its rows say (a repeat is harmless), and at its
// end the result file in the card's thread and to its requester, each written down once Slack took it.

export type BatchShowDeps = NoticeDeps;

/** The batch as its card shows it: its rows' requests read now, its figures per method. */
export async function batchView(deps: Pick<NoticeDeps, "board">, batch: Batch, card: BatchCard) {
  const ids = batch.rows.flatMap((row) => (row.payout ? [row.payout] : []));
  const rows = await readRows(deps, ids);
  const kept = batch.rows.filter((row) => row.payout && !row.dropped);
  return { batch, card, rows, totals: methodTotals(kept, batch.balances), total: batchTotal(batch) };
}

async function patchCard(deps: Pick<NoticeDeps, "board">, id: string, patch: (card: BatchCard) => BatchCard) {
  await BATCHES.update(deps.board, id, CARD_FIELD, (stored) =>
    stored.value ? { next: patch(stored.value), result: undefined } : { result: undefined },
  );
}

/**
 * Shows batch `id` as it stands: its card posted (when `mayPost`, and not posted yet) or updated.
 * Owed: Slack did not take it (or it may not post): tried again by the follower.
 */
export async function showBatch(
  deps: BatchShowDeps,
  id: string,
  mayPost: boolean,
): Promise<{ owed: boolean }> {
  const batch = await readBatch(deps.board, id);
  const card = await readBatchCard(deps.board, id);
  if (!batch || !card || batch.status === "quoting") return { owed: false };
  const slack = await deps.slack(batch.team);
  if (!slack) return { owed: false };
  const message = batchCardMessage(await batchView(deps, batch, card), card.lang);
  const key = createHash("sha1").update(JSON.stringify(message)).digest("hex").slice(0, 16);
  if (card.card && card.shows === key) return { owed: false };
  if (!card.card && !mayPost) return { owed: true };
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
    deps.logger.warn(
      { batch: id, slackError: slackErrorCode(error) },
      "batch card not shown: tried again later",
    );
    return { owed: true };
  }
}

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

/**
 * An ended batch's result file, in its card's thread and to its requester, each once Slack took it
 * (a crash between Slack's answer and the note sends that one again). True when both are told.
 */
export async function tellResult(deps: BatchShowDeps, id: string): Promise<boolean> {
  const batch = await readBatch(deps.board, id);
  const card = await readBatchCard(deps.board, id);
  if (!batch || !card || batch.status !== "ended") return true;
  const slack = await deps.slack(batch.team);
  if (!slack || !card.card) return false;
  const view = await batchView(deps, batch, card);
  const t = PAYOUT_BATCH_TEXT[card.lang];
  const bytes = Buffer.from(resultCsv(view, card.lang), "utf8");
  const paid = [...view.rows.values()].filter((request) => rowStateOf(request) === "paid").length;
  const file = {
    bytes,
    filename: `batch-${batch.id}.csv`,
    title: t.resultTitle,
    comment: t.resultComment(view.rows.size, paid),
  };
  for (const to of ["thread", "requester"] as const) {
    if (card.told.includes(to)) continue;
    try {
      const channel = to === "thread" ? card.card.channel : await directChannel(slack, batch.requester);
      await uploadFile(slack as webApi.WebClient, {
        ...file,
        channel,
        ...(to === "thread" ? { threadTs: card.card.ts } : {}),
      });
      await patchCard(deps, id, (now) => ({ ...now, told: [...new Set([...now.told, to])] }));
    } catch (error) {
      deps.logger.warn({ batch: id, to, err: error }, "batch result not sent: tried again later");
      return false;
    }
  }
  return true;
}

/**
 * A batch just quoted, or just decided: its card posted (when `mayPost`) or updated with the
 * clicker's client; the batch due now, so the follower posts what Slack did not take, sends its rows
 * or tells its end under its claim.
 */
export async function announceBatch(
  deps: Pick<NoticeDeps, "board" | "logger">,
  client: webApi.WebClient,
  id: string,
  now: Date,
  mayPost = true,
): Promise<void> {
  await showBatch({ ...deps, slack: async () => client }, id, mayPost);
  await deps.board.nudge(BATCH_FAMILY, id, now.getTime());
}
