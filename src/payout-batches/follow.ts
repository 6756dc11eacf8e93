import { readRows } from "../payouts/batch-rows.js";
import type { NoteHolder } from "../payouts/end-notes.js";
import { type BatchHooks, type PayoutDeps, timingOf } from "../payouts/request-deps.js";
import { FINAL_STATUSES, type PayoutRequest } from "../payouts/request-model.js";
import { workDue } from "../store/claims/due-work.js";
import type { ClaimedItem, Release } from "../store/claims/index.js";
import { QUOTING_MS } from "./create.js";
import { appendBatchEntries, batchEntry } from "./entries.js";
import { BATCH_FAMILY, BATCH_FIELD, BATCH_FINAL, BATCHES, type Batch, keptRows } from "./model.js";
import { tellResult } from "./result.js";
import { applyToRows } from "./rows-follow.js";
import { type BatchShowDeps, showBatch } from "./show.js";

// The batch follower, run with every payout worker's run on every replica: each batch due is
// claimed and moved on. A batch whose quoting never finished (its replica died) is cancelled; a
// waiting one past its expiry expires; an approved one has its rows approved (again, after a crash)
// and ends once every row has; a decided one has its rows ended with it; a waiting one whose card its
// approval channel refused for good is cancelled. Its card follows, and its end is told once in each
// place (result.ts), the claim checked before each post. The rows themselves are sent by the payout worker.

/** How often an approved batch is looked at while its rows are on their way (rows also nudge it). */
const FOLLOW_MS = 30_000;

/** Moves the batch by compare-and-set when it is still `from`, with its audit entry. */
async function moveBatch(
  deps: PayoutDeps,
  id: string,
  from: Batch["status"],
  change: (batch: Batch) => Batch,
  act: { action: "batch.expired" | "batch.cancelled" | "batch.ended"; reason: string },
  at: Date,
): Promise<Batch | undefined> {
  const moved = await BATCHES.update(deps.board, id, BATCH_FIELD, (stored) => {
    if (stored.value?.status !== from) return { result: undefined };
    const next = change(stored.value);
    const along = batchEntry(next, {
      action: act.action,
      actor: "kassa",
      outcome: "done",
      reason: act.reason,
      time: at,
    });
    return { next, along, result: next };
  });
  if (moved) await appendBatchEntries(deps, at);
  return moved;
}

const allFinal = (batch: Batch, rows: ReadonlyMap<string, PayoutRequest | undefined>) =>
  keptRows(batch).every((row) => {
    const request = row.payout ? rows.get(row.payout) : undefined;
    return request === undefined || FINAL_STATUSES.has(request.status);
  });

type OnTime = {
  change: (batch: Batch, iso: string) => Batch;
  act: { action: "batch.expired" | "batch.cancelled" | "batch.ended"; reason: string };
};

/** The move a batch makes by itself once its time came: quoting lost, waiting expired, approved ended. */
const ON_TIME: Partial<Record<Batch["status"], OnTime>> = {
  quoting: {
    change: (batch, iso) => ({
      ...batch,
      status: "cancelled",
      cancellation: { by: batch.requester, at: iso, why: "quoting_lost" },
      endedAt: iso,
    }),
    act: { action: "batch.cancelled", reason: "its quoting never finished (Kassa stopped meanwhile)" },
  },
  waiting: {
    change: (batch, iso) => ({ ...batch, status: "expired", endedAt: iso }),
    act: { action: "batch.expired", reason: "not approved in time" },
  },
  approved: {
    change: (batch, iso) => ({ ...batch, status: "ended", endedAt: iso }),
    act: { action: "batch.ended", reason: "every row at its end" },
  },
};

/** One batch moved a step; its release (its next look, or forgotten). */
async function stepBatch(deps: PayoutDeps, batch: Batch, at: Date): Promise<Release> {
  const now = at.getTime();
  if (batch.status === "quoting" && now < Date.parse(batch.createdAt) + QUOTING_MS)
    return { dueAt: Date.parse(batch.createdAt) + QUOTING_MS };
  if (batch.status === "waiting" && now < Date.parse(batch.expiresAt))
    return { dueAt: Date.parse(batch.expiresAt) };
  if (batch.status === "approved") {
    // Its rows approved (again, after a crash between the batch's approval and theirs), then followed.
    await applyToRows(deps, batch, at);
    const rows = await readRows(
      deps,
      keptRows(batch).flatMap((row) => (row.payout ? [row.payout] : [])),
    );
    if (!allFinal(batch, rows)) return { dueAt: now + FOLLOW_MS };
  }
  const onTime = ON_TIME[batch.status];
  if (onTime) {
    const moved = await moveBatch(
      deps,
      batch.id,
      batch.status,
      (one) => onTime.change(one, at.toISOString()),
      onTime.act,
      at,
    );
    if (moved) await applyToRows(deps, moved, at);
    return { dueAt: now };
  }
  // Decided: its rows ended with it (again, after a crash), kept for stale clicks, then forgotten.
  if (batch.status !== "ended") await applyToRows(deps, batch, at);
  const until = Date.parse(batch.endedAt ?? batch.createdAt) + timingOf(deps).keepMs;
  return now >= until ? "forget" : { dueAt: until };
}

/** A batch whose card its approval channel refused for good: cancelled while it waits, every quote too. */
async function endUnshown(
  deps: PayoutDeps,
  id: string,
  refused: { code: string },
  at: Date,
): Promise<boolean> {
  const iso = at.toISOString();
  const moved = await moveBatch(
    deps,
    id,
    "waiting",
    (batch) => ({
      ...batch,
      status: "cancelled",
      cancellation: { by: batch.requester, at: iso, why: "card_refused" },
      endedAt: iso,
    }),
    { action: "batch.cancelled", reason: `its approval channel refused its card (${refused.code})` },
    at,
  );
  if (moved) await applyToRows(deps, moved, at);
  return moved !== undefined;
}

/**
 * One claimed batch: moved, its card and its end told under the claim (checked again before each
 * post: Slack may take its deadline for each call); its release, sooner while Slack owes something.
 */
async function followOne(
  deps: PayoutDeps,
  notices: BatchShowDeps,
  item: ClaimedItem,
  clock: () => number,
): Promise<Release> {
  const { key, token } = item;
  const timing = timingOf(deps);
  const at = new Date(clock());
  const holder: NoteHolder = {
    token,
    holds: () => deps.board.renew(BATCH_FAMILY, key, token, clock(), timing.leaseMs),
    now: clock,
  };
  // Batches are followed one after another: a claim whose lease ran out meanwhile is left alone.
  if (!(await holder.holds())) return { dueAt: at.getTime() + timing.retryMs };
  const read = await BATCHES.read(deps.board, key, BATCH_FIELD);
  if (!read.value) {
    if (read.raw === undefined) return "forget";
    // Kept for an operator to look at; never acted on.
    deps.logger.error({ batch: key }, "a stored payout batch is unreadable");
    return { dueAt: at.getTime() + timing.keepMs };
  }
  let release = await stepBatch(deps, read.value, at);
  if (release === "forget") return release;
  const shown = await showBatch(notices, key, true, at, holder);
  if (shown.refused && (await endUnshown(deps, key, shown.refused, at))) release = { dueAt: at.getTime() };
  const after = (await BATCHES.read(deps.board, key, BATCH_FIELD)).value;
  const told =
    after && BATCH_FINAL.has(after.status) ? await tellResult(notices, key, at, holder) : { told: true };
  const waits = [
    ...(shown.owed ? [shown.retryInMs ?? timing.retryMs] : []),
    ...(told.told ? [] : [told.retryInMs ?? timing.retryMs]),
  ];
  if (waits.length === 0) return release;
  return { dueAt: Math.min(release.dueAt, clock() + Math.min(...waits)) };
}

/** One run at `now`: the batches due, each claimed and moved one step (a failing one looked at again later). */
export async function runDueBatches(deps: PayoutDeps, now: Date): Promise<void> {
  const timing = timingOf(deps);
  const started = performance.now();
  const clock = () => now.getTime() + Math.round(performance.now() - started);
  const notices: BatchShowDeps = {
    board: deps.board,
    logger: deps.logger,
    slack: deps.slack ?? (async () => undefined),
  };
  await workDue(
    deps.board,
    BATCH_FAMILY,
    now.getTime(),
    {
      leaseMs: timing.leaseMs,
      limit: timing.batch,
      retryMs: timing.retryMs,
      failed: (key, error) => deps.logger.error({ batch: key, err: error }, "a payout batch step failed"),
    },
    (item) => followOne(deps, notices, item, clock),
  );
}

/** The payout worker's hooks into the batches: each run follows them, a row's step looks at its batch now. */
export function batchHooks(deps: PayoutDeps): BatchHooks {
  return {
    run: (now) => runDueBatches(deps, now),
    rowMoved: async (request, at) => {
      if (request.batch) await deps.board.nudge(BATCH_FAMILY, request.batch.id, at);
    },
  };
}
