import { describe, expect, it } from "vitest";
import { HOUR_MS } from "../../src/method-watch/assess.js";
import { decideCheck, decideReadFailure, type ListedMethod } from "../../src/method-watch/decide.js";
import type { MethodFigures } from "../../src/method-watch/figures.js";
import {
  DEFAULT_FAILURE_RULE,
  DEFAULT_SILENCE_RULE,
  type MethodWatchState,
  NO_WATCH,
  type WatchSettings,
} from "../../src/method-watch/state.js";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const SETTINGS: WatchSettings = {
  channel: "C0ALERTS",
  mention: ["U0ADMIN"],
  failure: DEFAULT_FAILURE_RULE,
  silence: DEFAULT_SILENCE_RULE,
  by: "U0ADMIN",
  at: "2026-11-27T09:00:00.000Z",
};
const listed = (code: string, enabled = true, surcharge = "0"): ListedMethod => ({
  code,
  name: code === "BITCOIN" ? "Bitcoin" : code,
  on: enabled,
  enabled,
  surcharge,
});
const healthy = (code: string): MethodFigures => ({
  code,
  window: { invoices: 10, failures: 0, wrongAmounts: 0 },
  before: { invoices: 500, failures: 25 },
  lastPaidAt: NOW - 60_000,
  usualQuietMs: 600_000,
});
const failing = (code: string): MethodFigures => ({
  ...healthy(code),
  window: { invoices: 14, failures: 9, wrongAmounts: 0 },
});
const input = (figures: MethodFigures[], methods = [listed("BITCOIN"), listed("USDTTRC")]) => ({
  methods,
  figures: new Map(figures.map((one) => [one.code, one])),
  records: new Map(),
  now: NOW,
  calmMs: 1_800_000,
});
const watch = (change: Partial<MethodWatchState> = {}): MethodWatchState => ({
  ...NO_WATCH,
  settings: SETTINGS,
  seen: {
    at: NOW - 300_000,
    methods: { BITCOIN: { on: true, surcharge: "0" }, USDTTRC: { on: true, surcharge: "0" } },
  },
  ...change,
});

describe("decideCheck", () => {
  it("opens an episode for a failing method and owes its alert; the others stay quiet", () => {
    const decided = decideCheck(watch(), SETTINGS, input([failing("BITCOIN"), healthy("USDTTRC")]));
    expect(decided.next.episodes).toEqual({ BITCOIN: { kind: "failure", since: NOW } });
    expect(decided.posts).toHaveLength(1);
    expect(decided.posts[0]).toMatchObject({ kind: "alert", code: "BITCOIN", name: "Bitcoin" });
    expect(decided.next.seen?.at).toBe(NOW);
  });

  it("says nothing more while an episode lasts, and clears the failing mark", () => {
    const open = {
      kind: "failure" as const,
      since: NOW - 600_000,
      posted: { channel: "C0ALERTS", ts: "1.2" },
    };
    const decided = decideCheck(
      watch({ episodes: { BITCOIN: open }, failingSince: NOW - HOUR_MS, failingToldAt: NOW - 60_000 }),
      SETTINGS,
      input([failing("BITCOIN"), healthy("USDTTRC")]),
    );
    expect(decided.posts).toEqual([]);
    expect(decided.next.episodes).toEqual({ BITCOIN: open });
    expect(decided.next.failingSince).toBeUndefined();
    expect(decided.next.failingToldAt).toBeUndefined();
  });

  it("closes an episode after calm for METHOD_CALM_MS with a line in its thread", () => {
    const open = {
      kind: "failure" as const,
      since: NOW - HOUR_MS,
      posted: { channel: "C0ALERTS", ts: "1.2" },
      calmSince: NOW - 1_800_000,
    };
    const decided = decideCheck(
      watch({ episodes: { BITCOIN: open } }),
      SETTINGS,
      input([healthy("BITCOIN")]),
    );
    expect(decided.next.episodes).toEqual({});
    expect(decided.posts).toEqual([
      { kind: "closed", code: "BITCOIN", name: "Bitcoin", how: "calm", episode: open },
    ]);
  });

  it("closes an episode of a method no longer listed, and drops snoozes that are over", () => {
    const open = {
      kind: "silence" as const,
      since: NOW - HOUR_MS,
      posted: { channel: "C0ALERTS", ts: "1.2" },
    };
    const decided = decideCheck(
      watch({ episodes: { GONE: open }, snoozed: { BITCOIN: NOW - 1, USDTTRC: NOW + HOUR_MS } }),
      SETTINGS,
      input([healthy("BITCOIN"), failing("USDTTRC")]),
    );
    expect(decided.posts).toEqual([
      { kind: "closed", code: "GONE", name: "GONE", how: "off", episode: open },
    ]);
    expect(decided.next.snoozed).toEqual({ USDTTRC: NOW + HOUR_MS });
    expect(decided.next.episodes).toEqual({});
  });

  it("tells a change made outside with the time the list was seen before", () => {
    const decided = decideCheck(
      watch(),
      SETTINGS,
      input([healthy("BITCOIN")], [listed("BITCOIN", true, "10"), listed("USDTTRC")]),
    );
    expect(decided.posts).toEqual([
      {
        kind: "news",
        seenAt: NOW - 300_000,
        change: {
          code: "BITCOIN",
          name: "Bitcoin",
          before: { on: true, surcharge: "0" },
          after: { on: true, surcharge: "10" },
        },
      },
    ]);
  });
});

describe("decideReadFailure", () => {
  it.each([
    // failing since, told at → tell, told at after
    [undefined, undefined, false, undefined],
    [NOW - HOUR_MS + 1, undefined, false, undefined],
    [NOW - HOUR_MS, undefined, true, NOW],
    [NOW - 3 * HOUR_MS, NOW - HOUR_MS + 1, false, NOW - HOUR_MS + 1],
    [NOW - 3 * HOUR_MS, NOW - HOUR_MS, true, NOW],
  ] as const)("failing since %s, told at %s: tells %s", (since, toldAt, tell, toldAfter) => {
    const current = watch({
      ...(since === undefined ? {} : { failingSince: since }),
      ...(toldAt === undefined ? {} : { failingToldAt: toldAt }),
    });
    const decided = decideReadFailure(current, NOW);
    expect(decided.tell).toBe(tell);
    expect(decided.next.failingSince).toBe(since ?? NOW);
    expect(decided.next.failingToldAt).toBe(toldAfter);
  });
});
