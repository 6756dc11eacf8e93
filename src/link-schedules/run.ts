import { createHash } from "node:crypto";
import type { webApi } from "@slack/bolt";
import { type AuditRecorder, recordAct } from "../audit/index.js";
import { refusalText } from "../blocks/invoice-create.js";
import { ephemeral } from "../blocks/replies.js";
import { scheduleDate, scheduleRule, scheduleWhat } from "../blocks/schedules.js";
import { DEFAULT_LANG, type Lang } from "../i18n/lang.js";
import { SCHEDULES_TEXT } from "../i18n/schedules.js";
import { type CreatedCardNote, postCreatedInvoiceCard } from "../invoices/created-card.js";
import type { InvoiceDeps } from "../invoices/deps.js";
import { createLink, type LinkAttempt, type LinkDeps } from "../links/create.js";
import { NotConnectedError, ServiceError } from "../payments/errors.js";
import { newRef } from "../payments/marker.js";
import type { InvoiceDraft } from "../payments/model.js";
import type { SlackClients } from "../watch/registry.js";
import type { ScheduleBook } from "./book.js";
import { type Schedule, scheduleKey } from "./model.js";

// One run of a schedule, by the replica whose claim holds it: its link made with a ref that comes from
// the schedule and the run's number (a second attempt, on any replica, is refused by the links'
// book), then the schedule moved on by compare-and-set; only the replica whose move lands posts the
// card and tells the owner, so a run makes one invoice, one card and one message. A register gone
// at a run pauses the schedule, and its owner is told once.

export type RunDeps = LinkDeps &
  InvoiceDeps & { book: ScheduleBook; slack: SlackClients; audit: AuditRecorder };

/** A run's link ref: the same for the same schedule and run, whichever replica asks. */
export function runRef(id: string, run: number): string {
  const digest = createHash("sha256").update(`link-schedule:${id}:${run}`).digest();
  return newRef((size) => digest.subarray(0, size));
}

/** What a run came to, for the pass's log line. */
export type RunNote = {
  run?: number;
  made?: "created" | "made_before" | "unsure" | "failed" | "not_recorded" | "moved_on_elsewhere";
  invoice?: string;
  paused?: "disconnected";
} & CreatedCardNote;

function draftOf(schedule: Schedule): InvoiceDraft {
  const { order } = schedule;
  return {
    amount: order.amount,
    currency: order.currency,
    lifetimeMinutes: order.lifetimeMinutes,
    description: order.description,
    extra: order.extra,
    payerDetails: order.email,
    requiredMethod: order.method,
  };
}

/** The run due now: made once, the schedule moved on; false when it must be tried again next pass. */
export async function runSchedule(deps: RunDeps, schedule: Schedule, note: RunNote): Promise<boolean> {
  const run = schedule.runs + 1;
  note.run = run;
  const connected = await deps.stores.credentials.get(schedule.registerKey);
  if (!connected) return pauseDisconnected(deps, schedule, note);
  const ref = runRef(schedule.id, run);
  const draft = draftOf(schedule);
  const attempt = await createLink(
    deps,
    schedule.registerKey,
    draft,
    {
      team: schedule.team,
      register: schedule.register,
      customer: schedule.order.customer,
      creator: schedule.owner,
      channel: schedule.channel,
      via: "schedule",
      scheduleId: schedule.id,
    },
    ref,
  );
  if (!attempt.ok && attempt.error instanceof NotConnectedError)
    return pauseDisconnected(deps, schedule, note);
  const made = await madeBy(deps, schedule, attempt, ref);
  note.made = made.kind;
  if (made.kind === "not_recorded") return false;
  const moved = await deps.book.advance(scheduleKey(schedule.registerKey, schedule.id), schedule.runs);
  if (!moved) {
    note.made = "moved_on_elsewhere";
    return true;
  }
  await audited(deps, schedule, run, made);
  await tellRun(deps, schedule, moved, made, note);
  return true;
}

type Made =
  | { kind: "created" | "made_before"; id: string; url: string }
  | { kind: "unsure" | "not_recorded" }
  | { kind: "failed"; why: string };

/** What the attempt came to; a ref refused as known already is the run made before (its record says how). */
async function madeBy(deps: RunDeps, schedule: Schedule, attempt: LinkAttempt, ref: string): Promise<Made> {
  if (attempt.ok) return { kind: "created", id: attempt.created.id, url: attempt.created.url };
  if (attempt.status === "unsure") return { kind: "unsure" };
  if (attempt.status === "failed") {
    const messages = attempt.error instanceof ServiceError ? attempt.error.messages : [String(attempt.error)];
    return { kind: "failed", why: refusalText(messages, await langOf(deps, schedule.team)) };
  }
  const before = await deps.links.read(schedule.registerKey, ref).catch(() => undefined);
  if (!before) return { kind: "not_recorded" };
  if (before.status === "created" && before.invoiceId && before.url)
    return { kind: "made_before", id: before.invoiceId, url: before.url };
  // Made before and still being looked for (or refused): the links' pass tells its creator.
  return { kind: "unsure" };
}

async function langOf(deps: Pick<InvoiceDeps, "stores">, team: string): Promise<Lang> {
  return (await deps.stores.settings.get(team).catch(() => undefined))?.language ?? DEFAULT_LANG;
}

/** The card in the schedule's channel and the link to its owner; a failure, to its owner. */
async function tellRun(
  deps: RunDeps,
  was: Schedule,
  now: Schedule,
  made: Made,
  note: RunNote,
): Promise<void> {
  const client = await deps.slack(was.team);
  if (!client || !("why" in made || "id" in made)) return;
  const lang = await langOf(deps, was.team);
  const t = SCHEDULES_TEXT[lang];
  const what = scheduleWhat(was, lang);
  const next = now.status === "active" ? scheduleDate(now.nextAt, now.zone, lang) : undefined;
  if (made.kind === "failed") {
    await dm(client, was.owner, ephemeral(t.failed(what, made.why, next), t.failedFallback(what)));
    return;
  }
  note.invoice = made.id;
  const creator = {
    teamId: was.team,
    userId: was.owner,
    channelId: was.channel,
    registerKey: was.registerKey,
    register: was.register,
  };
  const asked = { ...draftOf(was), customer: was.order.customer };
  await postCreatedInvoiceCard(deps, client, creator, { id: made.id, url: made.url }, asked, note).catch(
    (error: unknown) => {
      note.postError = error instanceof Error ? error.message : String(error);
    },
  );
  const text = t.ran(what, made.id, made.url, `<#${was.channel}>`, next);
  await dm(client, was.owner, ephemeral(text, t.ranFallback(made.id, made.url)));
}

async function dm(client: webApi.WebClient, user: string, message: { text: string; blocks?: unknown }) {
  await client.chat.postMessage({ channel: user, text: message.text, blocks: message.blocks as never });
}

async function audited(deps: RunDeps, schedule: Schedule, run: number, made: Made): Promise<void> {
  await recordAct(deps.audit, deps.logger, {
    team: schedule.team,
    ...(schedule.register ? { register: schedule.register } : {}),
    actor: "kassa",
    action: "schedule.ran",
    object: `schedule ${schedule.id}`,
    after: {
      run,
      amount: schedule.order.amount,
      currency: schedule.order.currency,
      ...("id" in made ? { invoice: made.id } : {}),
    },
    ...(made.kind === "failed"
      ? { outcome: "failed" as const, reason: made.why.slice(0, 200) }
      : made.kind === "unsure"
        ? { outcome: "failed" as const, reason: "unsure" }
        : { outcome: "done" as const }),
  });
}

/** Its register is not connected: paused (once, whichever replica), its owner told, in the trail. */
async function pauseDisconnected(deps: RunDeps, schedule: Schedule, note: RunNote): Promise<boolean> {
  note.paused = "disconnected";
  const paused = await deps.book.pause(schedule.registerKey, schedule.id, "kassa");
  if (!paused.changed) return true;
  await recordAct(deps.audit, deps.logger, {
    team: schedule.team,
    ...(schedule.register ? { register: schedule.register } : {}),
    actor: "kassa",
    action: "schedule.paused",
    object: `schedule ${schedule.id}`,
    outcome: "done",
    after: { reason: "disconnected" },
  });
  const client = await deps.slack(schedule.team);
  if (!client) return true;
  const lang = await langOf(deps, schedule.team);
  const t = SCHEDULES_TEXT[lang];
  const what = scheduleWhat(schedule, lang);
  const text = t.pausedDisconnected(what, scheduleRule(schedule, lang));
  await dm(client, schedule.owner, ephemeral(text, t.pausedDisconnectedFallback(what)));
  return true;
}
