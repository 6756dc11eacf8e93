import { describe, expect, it } from "vitest";
import {
  changedCodes,
  compareSeen,
  isKassaChange,
  type MethodNow,
  percentOf,
} from "../../src/method-watch/outside.js";
import type { MethodSwitchState } from "../../src/paymethods/switch-state.js";

const SEEN_AT = Date.parse("2026-11-28T12:00:00Z");
const NOW = SEEN_AT + 300_000;
const ON = { on: true, surcharge: "0" };
const OFF = { on: false, surcharge: "0" };
const TEN = { on: true, surcharge: "10" };

const record = (change: Partial<MethodSwitchState>): MethodSwitchState => ({ v: 1, done: [], ...change });
const last = (state: { on: boolean; surcharge: string }, at: number) => ({
  id: "V1",
  want: { on: state.on },
  ...state,
  by: "U1",
  at,
});
const pending = (want: { on?: boolean; surcharge?: string }, state: "sending" | "unsure" = "sending") => ({
  id: "V2",
  want,
  by: "U1",
  at: SEEN_AT + 1000,
  state,
});

describe("isKassaChange", () => {
  it.each([
    // name, record, before, after → Kassa's
    ["no record: outside", undefined, ON, OFF, false],
    ["last switch shows it, after the last look", record({ last: last(OFF, SEEN_AT + 1) }), ON, OFF, true],
    [
      "last switch shows it, but before the last look",
      record({ last: last(OFF, SEEN_AT - 1) }),
      ON,
      OFF,
      false,
    ],
    ["last switch shows another state", record({ last: last(OFF, SEEN_AT + 1) }), ON, TEN, false],
    [
      "last switch shows the surcharge, written otherwise",
      record({ last: last({ on: true, surcharge: "10.00" }, SEEN_AT + 1) }),
      ON,
      TEN,
      true,
    ],
    ["a switch being sent wants it", record({ pending: pending({ on: false }) }), ON, OFF, true],
    [
      "a switch sent without an answer wants it",
      record({ pending: pending({ on: false }, "unsure") }),
      ON,
      OFF,
      true,
    ],
    [
      "a switch being sent wants the other way",
      record({ pending: pending({ on: true }) }),
      { ...ON, on: false },
      { ...ON, on: false, surcharge: "5" },
      false,
    ],
    [
      "a switch off being sent, the surcharge changed too",
      record({ pending: pending({ on: false }) }),
      ON,
      { on: false, surcharge: "10" },
      false,
    ],
    ["a surcharge being set wants it", record({ pending: pending({ surcharge: "10" }) }), ON, TEN, true],
    [
      "a surcharge being set wants another",
      record({ pending: pending({ surcharge: "15" }) }),
      ON,
      TEN,
      false,
    ],
  ] as const)("%s", (_name, rec, before, after, kassa) => {
    expect(isKassaChange(rec, SEEN_AT, before, after)).toBe(kassa);
  });
});

const method = (code: string, on: boolean, surcharge: string): MethodNow => ({
  code,
  name: code,
  on,
  surcharge,
});

describe("compareSeen", () => {
  it("only notes what is there on the first read", () => {
    const compared = compareSeen(undefined, [method("BITCOIN", true, "0")], new Map(), NOW);
    expect(compared).toEqual({ seen: { at: NOW, methods: { BITCOIN: ON } }, news: [] });
    expect(changedCodes(undefined, [method("BITCOIN", true, "0")])).toEqual([]);
  });

  it("tells a change made outside, not Kassa's, not a new method, not one written otherwise", () => {
    const seen = {
      at: SEEN_AT,
      methods: { BITCOIN: ON, USDTTRC: ON, ETH: { on: true, surcharge: "1.5" }, GONE: ON },
    };
    const now = [
      method("BITCOIN", true, "10"),
      method("USDTTRC", false, "0"),
      method("ETH", true, "1.50"),
      method("NEW", true, "0"),
    ];
    expect(changedCodes(seen, now)).toEqual(["BITCOIN", "USDTTRC"]);
    const records = new Map([["USDTTRC", record({ last: last(OFF, SEEN_AT + 10) })]]);
    const compared = compareSeen(seen, now, records, NOW);
    expect(compared.news).toEqual([{ code: "BITCOIN", name: "BITCOIN", before: ON, after: TEN }]);
    expect(compared.seen).toEqual({
      at: NOW,
      methods: { BITCOIN: TEN, USDTTRC: OFF, ETH: { on: true, surcharge: "1.5" }, NEW: ON },
    });
  });

  it("keeps what was seen of a surcharge it cannot read", () => {
    const seen = { at: SEEN_AT, methods: { BITCOIN: TEN } };
    const compared = compareSeen(seen, [method("BITCOIN", false, "lots")], new Map(), NOW);
    expect(compared).toEqual({ seen: { at: NOW, methods: { BITCOIN: TEN } }, news: [] });
  });

  it.each([
    ["10", "10"],
    ["10.50", "10.5"],
    ["0.000000001", "0"],
    ["-1", undefined],
    ["1000", undefined],
    ["ten", undefined],
  ])("reads the surcharge %s as %s", (text, kept) => {
    expect(percentOf(text)).toBe(kept);
  });
});
