import { describe, expect, it } from "vitest";
import type { Assessment, Level } from "../../src/method-watch/assess.js";
import { stepEpisode } from "../../src/method-watch/episodes.js";
import type { Episode } from "../../src/method-watch/state.js";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const CALM_MS = 30 * 60_000;
const POSTED = { channel: "C1", ts: "1.1" };

const levels = (failure: Level, silence: Level = "calm"): Assessment => ({
  failure,
  silence,
  silenceLimitMs: 7_200_000,
});

const failing: Episode = { kind: "failure", since: NOW - 600_000, posted: POSTED };
const silent: Episode = { kind: "silence", since: NOW - 600_000, posted: POSTED };

describe("stepEpisode", () => {
  it.each([
    // name, episode, assessment, on, snoozed until → next, say
    ["calm, no episode: nothing", undefined, levels("calm"), true, undefined, undefined, undefined],
    [
      "failing: an episode and its alert",
      undefined,
      levels("trouble"),
      true,
      undefined,
      { kind: "failure", since: NOW },
      "alert",
    ],
    [
      "silent: an episode and its alert",
      undefined,
      levels("calm", "trouble"),
      true,
      undefined,
      { kind: "silence", since: NOW },
      "alert",
    ],
    [
      "both: the failure is told",
      undefined,
      levels("trouble", "trouble"),
      true,
      undefined,
      { kind: "failure", since: NOW },
      "alert",
    ],
    ["between: no episode", undefined, levels("between", "between"), true, undefined, undefined, undefined],
    ["snoozed: no episode", undefined, levels("trouble"), true, NOW + 1, undefined, undefined],
    ["snooze over: told", undefined, levels("trouble"), true, NOW, { kind: "failure", since: NOW }, "alert"],
    ["switched off: no episode", undefined, levels("trouble"), false, undefined, undefined, undefined],
    ["still failing: nothing more", failing, levels("trouble"), true, undefined, failing, undefined],
    [
      "between: still open, calm forgotten",
      { ...failing, calmSince: NOW - 60_000 },
      levels("between"),
      true,
      undefined,
      failing,
      undefined,
    ],
    [
      "calm: counted from now",
      failing,
      levels("calm"),
      true,
      undefined,
      { ...failing, calmSince: NOW },
      undefined,
    ],
    [
      "calm for less than METHOD_CALM_MS",
      { ...failing, calmSince: NOW - CALM_MS + 1 },
      levels("calm"),
      true,
      undefined,
      { ...failing, calmSince: NOW - CALM_MS + 1 },
      undefined,
    ],
    [
      "calm for METHOD_CALM_MS: over, one line",
      { ...failing, calmSince: NOW - CALM_MS },
      levels("calm"),
      true,
      undefined,
      undefined,
      "calm",
    ],
    [
      "failures calm but silent now: still open",
      { ...failing, calmSince: NOW - CALM_MS },
      levels("calm", "trouble"),
      true,
      undefined,
      failing,
      undefined,
    ],
    [
      "silence calm (a payment came)",
      silent,
      levels("between", "calm"),
      true,
      undefined,
      { ...silent, calmSince: NOW },
      undefined,
    ],
    [
      "switched off during an episode: closed with a line",
      failing,
      levels("trouble"),
      false,
      undefined,
      undefined,
      "off",
    ],
    [
      "an owed alert still failing: told again",
      { kind: "failure", since: NOW - 300_000 },
      levels("trouble"),
      true,
      undefined,
      { kind: "failure", since: NOW - 300_000 },
      "alert",
    ],
    [
      "an owed alert now silent: told as silence",
      { kind: "failure", since: NOW - 300_000 },
      levels("between", "trouble"),
      true,
      undefined,
      { kind: "silence", since: NOW - 300_000 },
      "alert",
    ],
    [
      "an owed alert no longer in trouble: dropped",
      { kind: "failure", since: NOW - 300_000 },
      levels("between"),
      true,
      undefined,
      undefined,
      undefined,
    ],
    [
      "an owed alert, switched off: dropped quietly",
      { kind: "failure", since: NOW - 300_000 },
      levels("trouble"),
      false,
      undefined,
      undefined,
      undefined,
    ],
    [
      "snoozed during an episode: over, nothing said",
      failing,
      levels("trouble"),
      true,
      NOW + 1,
      undefined,
      undefined,
    ],
  ] as const)("%s", (_name, episode, assessment, on, snoozedUntil, next, say) => {
    const step = stepEpisode({ episode, assessment, on, snoozedUntil, now: NOW, calmMs: CALM_MS });
    expect(step.next).toEqual(next);
    expect(step.say).toBe(say);
  });
});
