import { webApi } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import {
  type AfterPost,
  afterPost,
  beforeChannel,
  GIVE_UP_AFTER_MS,
  nextStep,
  nextTryAt,
  type PostFailure,
  type PostOutcome,
  postFailure,
  type TurnEnd,
  type TurnShare,
  turnDueAt,
  withFailure,
} from "../../src/feed/decide.js";
import { type Announcement, emptyState, type FeedState, type Pause } from "../../src/feed/model.js";

const NOW = Date.UTC(2026, 10, 25, 10, 0, 0);
const INTERVAL = 60_000;
const MINUTE = 60_000;

const owed = (id: string, fields: Partial<Announcement> = {}): Announcement => ({
  id,
  state: "payed",
  event: "paid",
  ...fields,
});
const withOwed = (...messages: Announcement[]): FeedState => ({ ...emptyState(1000), owed: messages });
const paused = (reason: Pause["reason"], ...messages: Announcement[]): FeedState => ({
  ...withOwed(...messages),
  pause: { reason, at: NOW - MINUTE, told: true },
});

describe("beforeChannel", () => {
  it.each<[string, FeedState, ReturnType<typeof beforeChannel>]>([
    ["not paused: delivers", withOwed(owed("a")), { kind: "deliver" }],
    [
      "paused for an unreadable history: still delivers what is owed",
      paused("unreadable_history", owed("a")),
      { kind: "deliver" },
    ],
    [
      "paused out of the channel with messages owed: drops them, written down",
      paused("not_in_channel", owed("a")),
      { kind: "quiet", state: paused("not_in_channel"), write: true },
    ],
    [
      "paused out of the channel with nothing owed: nothing to write",
      paused("not_in_channel"),
      { kind: "quiet", state: paused("not_in_channel"), write: false },
    ],
  ])("%s", (_, state, expected) => {
    expect(beforeChannel(state)).toEqual(expected);
  });
});

describe("nextStep", () => {
  const share = (fields: Partial<TurnShare> = {}): TurnShare => ({
    over: false,
    late: false,
    posted: 0,
    postsPerTurn: 20,
    ...fields,
  });
  it.each<[string, TurnShare, Announcement, ReturnType<typeof nextStep>["kind"]]>([
    ["never tried: posted", share(), owed("a"), "post"],
    ["its retry came due just now: posted", share(), owed("a", { retryAt: NOW }), "post"],
    ["its retry is past: posted", share(), owed("a", { retryAt: NOW - 1 }), "post"],
    [
      "its retry is a millisecond ahead: waits (the next one goes on)",
      share(),
      owed("a", { retryAt: NOW + 1 }),
      "wait",
    ],
    [
      "the turn is over (lost or stopping): stops, even before the first post",
      share({ over: true }),
      owed("a"),
      "share_used",
    ],
    [
      "late before any post: still posts one (a long read never starves posting)",
      share({ late: true }),
      owed("a"),
      "post",
    ],
    ["late after a post: stops", share({ late: true, posted: 1 }), owed("a"), "share_used"],
    ["one below the posts a turn: posts", share({ posted: 19 }), owed("a"), "post"],
    ["at the posts a turn: stops", share({ posted: 20 }), owed("a"), "share_used"],
    [
      "the share is checked before a waiting message",
      share({ posted: 20 }),
      owed("a", { retryAt: NOW + MINUTE }),
      "share_used",
    ],
  ])("%s", (_, turnShare, message, expected) => {
    expect(nextStep(turnShare, message, NOW).kind).toBe(expected);
  });
});

describe("postFailure", () => {
  const platform = (error: string) => new webApi.WebAPIPlatformError({ ok: false, error });
  const rateLimited = new webApi.WebAPIRateLimitedError(30);
  const http = new webApi.WebAPIHTTPError(503, "Service Unavailable", {});
  const request = new webApi.WebAPIRequestError(new Error("connect ECONNREFUSED 127.0.0.1:3000"));
  it.each<[string, unknown, PostFailure]>([
    [
      "not in the channel: gone",
      platform("not_in_channel"),
      { kind: "channel_gone", code: "not_in_channel" },
    ],
    [
      "channel deleted: gone",
      platform("channel_not_found"),
      { kind: "channel_gone", code: "channel_not_found" },
    ],
    ["channel archived: gone", platform("is_archived"), { kind: "channel_gone", code: "is_archived" }],
    [
      "ratelimited in Slack's answer: not taken, transient",
      platform("ratelimited"),
      { kind: "not_taken", code: "ratelimited", failure: "transient" },
    ],
    [
      "rate limited by the client (Retry-After): not taken, transient, its message as the code",
      rateLimited,
      { kind: "not_taken", code: rateLimited.message, failure: "transient" },
    ],
    [
      "token revoked: not taken (the feed keeps trying; a day later it gives up)",
      platform("token_revoked"),
      { kind: "not_taken", code: "token_revoked", failure: "token_dead" },
    ],
    [
      "missing scope: not taken",
      platform("missing_scope"),
      { kind: "not_taken", code: "missing_scope", failure: "token_dead" },
    ],
    [
      "an answer meaning a live card is gone does not pause the feed",
      platform("message_not_found"),
      { kind: "not_taken", code: "message_not_found", failure: "card_gone" },
    ],
    [
      "an unknown answer: not taken, transient",
      platform("msg_too_long"),
      { kind: "not_taken", code: "msg_too_long", failure: "transient" },
    ],
    ["HTTP 503: not taken, transient", http, { kind: "not_taken", code: http.message, failure: "transient" }],
    [
      "connection refused: not taken, transient",
      request,
      { kind: "not_taken", code: request.message, failure: "transient" },
    ],
    [
      "anything else thrown: not taken, transient",
      new Error("socket hang up"),
      { kind: "not_taken", code: "socket hang up", failure: "transient" },
    ],
  ])("%s", (_, error, expected) => {
    expect(postFailure(error)).toEqual(expected);
  });
});

describe("afterPost", () => {
  const before = owed("before");
  const after = owed("after", { retryAt: NOW + MINUTE, failures: 1, firstFailedAt: NOW - MINUTE });
  /** The channel owes `before`, the message tried (index 1), and `after`. */
  const tried = (fields: Partial<Announcement> = {}) => withOwed(before, owed("tried", fields), after);
  const failedOnce = { failures: 1, firstFailedAt: NOW, retryAt: NOW + INTERVAL };
  const firstFailed = (agoMs: number) => ({ failures: 4, firstFailedAt: NOW - agoMs, retryAt: NOW - 1 });
  it.each<[string, FeedState, PostOutcome, AfterPost]>([
    ["the turn lost its claim: nothing written", tried(), "lost", { kind: "lost" }],
    [
      "out of the channel: paused now, told, everything owed dropped",
      tried(),
      "not_in_channel",
      {
        kind: "pause",
        state: { ...withOwed(), pause: { reason: "not_in_channel", at: NOW, told: true } },
      },
    ],
    [
      "posted: written off, counted",
      tried(),
      "sent",
      { kind: "written_off", state: withOwed(before, after), posted: true },
    ],
    [
      "no longer due here: written off, not counted",
      tried(),
      "skipped",
      { kind: "written_off", state: withOwed(before, after), posted: false },
    ],
    [
      "posted after failing: written off",
      tried(firstFailed(GIVE_UP_AFTER_MS + MINUTE)),
      "sent",
      { kind: "written_off", state: withOwed(before, after), posted: true },
    ],
    [
      "its invoice unreadable the first time: tried again after the interval, the next ones go on",
      tried(),
      "unreadable",
      {
        kind: "retry_later",
        state: withOwed(before, owed("tried", failedOnce), after),
        retryAt: NOW + INTERVAL,
        stopChannel: false,
      },
    ],
    [
      "Slack did not take it the first time: tried again after the interval, the channel stops for the turn",
      tried(),
      "not_taken",
      {
        kind: "retry_later",
        state: withOwed(before, owed("tried", failedOnce), after),
        retryAt: NOW + INTERVAL,
        stopChannel: true,
      },
    ],
    [
      "unreadable a millisecond short of a day after its first failure: tried again (16 intervals on)",
      tried(firstFailed(GIVE_UP_AFTER_MS - 1)),
      "unreadable",
      {
        kind: "retry_later",
        state: withOwed(
          before,
          owed("tried", { ...firstFailed(GIVE_UP_AFTER_MS - 1), failures: 5, retryAt: NOW + 16 * INTERVAL }),
          after,
        ),
        retryAt: NOW + 16 * INTERVAL,
        stopChannel: false,
      },
    ],
    [
      "unreadable a day after its first failure: given up",
      tried(firstFailed(GIVE_UP_AFTER_MS)),
      "unreadable",
      { kind: "give_up", state: withOwed(before, after), why: "unreadable", stopChannel: false },
    ],
    [
      "not taken a day after its first failure: given up, the channel stops for the turn",
      tried(firstFailed(GIVE_UP_AFTER_MS)),
      "not_taken",
      { kind: "give_up", state: withOwed(before, after), why: "not_taken", stopChannel: true },
    ],
    [
      "not taken more than a day after: given up",
      tried(firstFailed(GIVE_UP_AFTER_MS + 3 * 3600_000)),
      "not_taken",
      { kind: "give_up", state: withOwed(before, after), why: "not_taken", stopChannel: true },
    ],
  ])("%s", (_, state, outcome, expected) => {
    expect(afterPost(state, 1, outcome, NOW, INTERVAL)).toEqual(expected);
  });

  it("gives up the only message owed, leaving nothing", () => {
    const only = withOwed(owed("only", firstFailed(GIVE_UP_AFTER_MS)));
    expect(afterPost(only, 0, "unreadable", NOW, INTERVAL)).toEqual({
      kind: "give_up",
      state: withOwed(),
      why: "unreadable",
      stopChannel: false,
    });
  });
});

describe("withFailure", () => {
  const MAX = 30 * MINUTE;
  it.each<[string, Announcement, number, Announcement]>([
    [
      "first failure: the interval",
      owed("a"),
      INTERVAL,
      owed("a", { failures: 1, firstFailedAt: NOW, retryAt: NOW + INTERVAL }),
    ],
    [
      "second: twice the interval, its first failure kept",
      owed("a", { failures: 1, firstFailedAt: NOW - MINUTE }),
      INTERVAL,
      owed("a", { failures: 2, firstFailedAt: NOW - MINUTE, retryAt: NOW + 2 * INTERVAL }),
    ],
    [
      "sixth: 32 intervals, cut to 30 minutes",
      owed("a", { failures: 5, firstFailedAt: NOW - MINUTE }),
      INTERVAL,
      owed("a", { failures: 6, firstFailedAt: NOW - MINUTE, retryAt: NOW + MAX }),
    ],
    [
      "an interval longer than 30 minutes: the interval, never doubled",
      owed("a", { failures: 3, firstFailedAt: NOW - MINUTE }),
      45 * MINUTE,
      owed("a", { failures: 4, firstFailedAt: NOW - MINUTE, retryAt: NOW + 45 * MINUTE }),
    ],
    [
      "many failures: the doubling stops at 2^20 intervals",
      owed("a", { failures: 100, firstFailedAt: NOW - MINUTE }),
      1,
      owed("a", { failures: 101, firstFailedAt: NOW - MINUTE, retryAt: NOW + 2 ** 20 }),
    ],
  ])("%s", (_, announcement, intervalMs, expected) => {
    expect(withFailure(announcement, NOW, intervalMs)).toEqual(expected);
  });
});

describe("nextTryAt", () => {
  it.each<[string, Announcement[], number | undefined]>([
    ["nothing owed", [], undefined],
    ["nothing waiting", [owed("a"), owed("b", { retryAt: NOW - 1 })], undefined],
    ["a retry due just now is not waiting", [owed("a", { retryAt: NOW })], undefined],
    [
      "the soonest retry ahead",
      [owed("a", { retryAt: NOW + 5 * MINUTE }), owed("b"), owed("c", { retryAt: NOW + MINUTE })],
      NOW + MINUTE,
    ],
  ])("%s", (_, messages, expected) => {
    expect(nextTryAt(messages, NOW)).toBe(expected);
  });
});

describe("turnDueAt", () => {
  const started = NOW - 2000;
  const worked = (fields: Partial<Extract<TurnEnd, { kind: "worked" }>> = {}): TurnEnd => ({
    kind: "worked",
    now: NOW,
    more: false,
    nextTryAt: Number.POSITIVE_INFINITY,
    ...fields,
  });
  it.each<[string, TurnEnd, number]>([
    ["no feeds: ten intervals from the start", { kind: "idle" }, started + 10 * INTERVAL],
    ["a write refused (claim lost): the turn's start", { kind: "lost" }, started],
    ["a backlog left: at once", worked({ more: true, nextTryAt: NOW + 1000 }), NOW],
    ["nothing left: the interval from the turn's start", worked(), started + INTERVAL],
    [
      "a turn longer than the interval: at once",
      worked({ now: started + INTERVAL + 5 }),
      started + INTERVAL + 5,
    ],
    ["a failing message due before the interval: its retry", worked({ nextTryAt: NOW + 1000 }), NOW + 1000],
    [
      "a failing message due after the interval: the interval",
      worked({ nextTryAt: NOW + 2 * INTERVAL }),
      started + INTERVAL,
    ],
  ])("%s", (_, end, expected) => {
    expect(turnDueAt(end, started, INTERVAL)).toBe(expected);
  });
});
