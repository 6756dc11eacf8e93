import type { webApi } from "@slack/bolt";
import { payoutEndNote } from "../blocks/payout-card.js";
import { PAYOUT_NOTES_TEXT } from "../i18n/payout-notes.js";
import { slackApiError, slackErrorCode } from "../slack/error.js";
import { retryAfterMsOf } from "../slack/failures.js";
import type { ClaimBoard } from "../store/claims/index.js";
import type { Logger } from "../util/logger.js";
import type { PayoutNotice } from "./notice-model.js";
import { patchNotice } from "./notice-store.js";
import type { PayoutRequest } from "./request-model.js";

// The two notes at a request's end, each posted once: in the card's thread and to the requester by
// direct message. The end itself (the request's final status) is written before Slack is told, so
// a note owed is never lost. Only the worker holding the request's claim posts them, and it checks
// the claim again just before each post, so two replicas never post the same note; each note is
// marked as being posted (with the claim's token) before Slack is called, and as told once Slack
// took it. A process that stops after Slack took a note and before it was marked told leaves its
// mark: the next holder posts it again (never lost, at worst repeated) and logs that it may be.

/** What telling Slack about a request needs (notices.ts and the notes here). */
export type NoticeDeps = {
  board: ClaimBoard;
  /** The workspace's Slack client; undefined when Kassa is not installed there (nothing can be told). */
  slack(team: string): Promise<webApi.WebClient | undefined>;
  logger: Logger;
};

export type NoteTo = "thread" | "requester";

/** The worker holding the request's claim: its token, and a renewal of the claim (false: lost). */
export type NoteHolder = { token: string; holds(): Promise<boolean>; now(): number };

/** All notes told; or not, and when Slack asked to be tried again (its Retry-After), if it did. */
export type NotesTold = { told: boolean; retryInMs?: number };

type Note = { to: NoteTo; channel: string; text: string; thread?: string };

/** The notes still owed; undefined when the request's end has none. */
function notesOwed(request: PayoutRequest, notice: PayoutNotice): Note[] | undefined {
  const note = payoutEndNote(request, notice.lang);
  if (!note) return undefined;
  const t = PAYOUT_NOTES_TEXT[notice.lang];
  const notes: Note[] = [];
  if (notice.card && !notice.told.includes("thread"))
    notes.push({ to: "thread", channel: notice.card.channel, text: note, thread: notice.card.ts });
  if (!notice.told.includes("requester"))
    notes.push({
      to: "requester",
      channel: request.requester,
      text: `${t.toRequester(`<#${notice.channel}>`)}\n${note}`,
    });
  return notes;
}

/** Marks `to` as being posted by this holder: "told" when it was told meanwhile, "failed" when the mark did not land. */
async function mark(
  deps: NoticeDeps,
  id: string,
  to: NoteTo,
  holder: NoteHolder,
): Promise<"marked" | "told" | "failed"> {
  const at = new Date(holder.now()).toISOString();
  let toldAlready = false;
  const marked = await patchNotice(deps.board, id, (now) => {
    toldAlready = now.told.includes(to);
    if (toldAlready) return undefined;
    const earlier = now.noting?.find((one) => one.to === to && one.token !== holder.token);
    if (earlier)
      deps.logger.warn(
        { payout: id, note: to, since: earlier.at },
        "a payout note's earlier post ended without word: it is posted again and may show twice",
      );
    const others = (now.noting ?? []).filter((one) => one.to !== to);
    return { ...now, noting: [...others, { to, token: holder.token, at }] };
  });
  return marked ? "marked" : toldAlready ? "told" : "failed";
}

/** Takes this holder's mark off `to`, and adds `to` to what was told when Slack took it. */
async function settle(deps: NoticeDeps, id: string, to: NoteTo, told: boolean): Promise<boolean> {
  const done = await patchNotice(deps.board, id, (now) => {
    const { noting: _noting, ...rest } = now;
    const noting = (now.noting ?? []).filter((one) => one.to !== to);
    const toldNow: NoteTo[] = told ? [...new Set([...now.told, to])] : now.told;
    return { ...rest, told: toldNow, ...(noting.length > 0 ? { noting } : {}) };
  });
  return done !== undefined;
}

/** Posts the end's notes still owed; `told` false when one is still owed (or the claim was lost). */
export async function tellEnd(
  deps: NoticeDeps,
  slack: webApi.WebClient,
  request: PayoutRequest,
  notice: PayoutNotice,
  holder: NoteHolder,
): Promise<NotesTold> {
  const notes = notesOwed(request, notice);
  if (!notes) return { told: true };
  // The thread's note waits for the card.
  let told = notice.card !== undefined;
  let retryInMs: number | undefined;
  for (const note of notes) {
    // The claim is checked just before the post: a worker that lost it leaves the note to the holder.
    if (!(await holder.holds())) return { told: false };
    const marked = await mark(deps, request.id, note.to, holder);
    if (marked !== "marked") {
      told = marked === "told" && told;
      continue;
    }
    try {
      await slack.chat.postMessage({
        channel: note.channel,
        text: note.text,
        ...(note.thread ? { thread_ts: note.thread } : {}),
        unfurl_links: false,
      });
      told = (await settle(deps, request.id, note.to, true)) && told;
    } catch (error) {
      deps.logger.warn(
        { team: request.team, payout: request.id, note: note.to, slackError: slackErrorCode(error) },
        "payout note not sent: tried again later",
      );
      told = false;
      const wait = retryAfterMsOf(error);
      if (wait !== undefined) retryInMs = Math.max(retryInMs ?? 0, wait);
      // Slack answered (a refusal, the rate): not posted, so the mark comes off. Without an answer
      // (a time-out, a 5xx) it may have been posted: the mark stays.
      if (slackApiError(error) !== undefined || wait !== undefined)
        await settle(deps, request.id, note.to, false);
    }
  }
  return retryInMs === undefined ? { told } : { told, retryInMs };
}
