import { describe, expect, it } from "vitest";
import type { PaymentMethod } from "../../src/payments/model.js";
import {
  alreadyBy,
  claimStep,
  finished,
  lastIncomingOn,
  lastOf,
  markedUnsure,
  sameWant,
  settleStep,
  shows,
  UNSURE_GIVE_UP_MS,
} from "../../src/paymethods/switch-rules.js";
import { type MethodSwitchState, NO_SWITCH, SWITCH_DONE_KEPT } from "../../src/paymethods/switch-state.js";

const NOW = Date.parse("2026-11-28T21:40:00Z");

function method(code: string, over: Partial<PaymentMethod> = {}): PaymentMethod {
  return {
    code,
    name: code,
    enabled: true,
    switchedOn: true,
    currency: "RUB",
    commissionPercent: "1",
    commission: { value: "0", currency: "RUB" },
    extraCommissionPercent: "0",
    extraCommission: null,
    minimalStatusLevel: 0,
    limits: null,
    ...over,
  };
}

const ASKED = { id: "V0VIEW1", want: { on: false }, by: "U0ADMIN" };

describe("a method showing what is wanted", () => {
  it.each([
    [{ on: false }, { switchedOn: false }, true],
    [{ on: false }, { switchedOn: true }, false],
    // The merchant's own switch, not what payers get: on here and off at the service is "on".
    [{ on: true }, { switchedOn: true, enabled: false }, true],
    [{ surcharge: "10" }, { extraCommissionPercent: "10.00" }, true],
    [{ surcharge: "10" }, { extraCommissionPercent: "1" }, false],
    [{ on: true, surcharge: "2.5" }, { extraCommissionPercent: "2.50" }, true],
  ])("want %j of %j: %s", (want, over, expected) => {
    expect(shows(method("BITCOIN", over), want)).toBe(expected);
  });

  it("compares surcharges as decimals", () => {
    expect(sameWant({ surcharge: "5" }, { surcharge: "5.0" })).toBe(true);
    expect(sameWant({ surcharge: "5" }, { on: true })).toBe(false);
    expect(sameWant({ on: false }, { on: false })).toBe(true);
  });
});

describe("the last incoming method on", () => {
  it("counts the others on at both ends, TEST left out", () => {
    const methods = [
      method("BITCOIN"),
      method("CARDRUBP2P", { switchedOn: false, enabled: false }),
      method("DASH", { switchedOn: true, enabled: false }),
      method("TEST"),
    ];
    expect(lastIncomingOn(methods, "BITCOIN")).toBe(true);
    expect(lastIncomingOn([...methods, method("LZTMARKET")], "BITCOIN")).toBe(false);
  });
});

describe("who made a method show it already", () => {
  const off = method("BITCOIN", { switchedOn: false });
  const last = lastOf(ASKED, off, NOW - 60_000);

  it("Kassa's last switch, when it asked for this and the service still shows what it recorded", () => {
    expect(alreadyBy({ ...NO_SWITCH, last }, off, { on: false })).toEqual({
      kind: "kassa",
      by: "U0ADMIN",
      at: NOW - 60_000,
    });
  });

  it("not a last switch of the surcharge (it did not switch the method off)", () => {
    const surcharge = lastOf({ ...ASKED, want: { surcharge: "0" } }, off, NOW);
    expect(alreadyBy({ ...NO_SWITCH, last: surcharge }, off, { on: false })).toEqual({ kind: "unknown" });
  });

  it("a change outside Kassa when the watch last saw it otherwise; nothing known when it saw it so", () => {
    const seenOn = { at: NOW - 300_000, on: true, surcharge: "0" };
    expect(alreadyBy(NO_SWITCH, off, { on: false }, seenOn)).toEqual({
      kind: "outside",
      since: NOW - 300_000,
    });
    expect(alreadyBy(NO_SWITCH, off, { on: false }, { ...seenOn, on: false })).toEqual({ kind: "unknown" });
    expect(alreadyBy(NO_SWITCH, off, { on: false })).toEqual({ kind: "unknown" });
  });

  it("a last switch the service no longer shows is not the reason (switched on and off elsewhere since)", () => {
    const record = { ...NO_SWITCH, last: { ...last, surcharge: "5" } };
    expect(alreadyBy(record, off, { on: false })).toEqual({ kind: "unknown" });
  });
});

describe("a confirmation taking the record", () => {
  it("one that is not handled takes it, as sending", () => {
    const step = claimStep(NO_SWITCH, ASKED, NOW);
    expect(step).toEqual({
      kind: "claimed",
      next: { v: 1, done: [], pending: { ...ASKED, at: NOW, state: "sending" } },
      replaced: undefined,
    });
  });

  it("the same one again: a repeat, with its last switch when it was the last", () => {
    const last = lastOf(ASKED, method("BITCOIN", { switchedOn: false }), NOW);
    expect(claimStep({ ...NO_SWITCH, done: ["V0VIEW1"], last }, ASKED, NOW)).toEqual({
      kind: "repeat",
      last,
    });
    expect(claimStep({ ...NO_SWITCH, done: ["V0VIEW1"] }, ASKED, NOW)).toEqual({
      kind: "repeat",
      last: undefined,
    });
  });

  it("while one is sending, another (or the same) is told it is under way", () => {
    const sending: MethodSwitchState = {
      ...NO_SWITCH,
      pending: { id: "V0OTHER", want: { on: false }, by: "U0ANNA", at: NOW, state: "sending" },
    };
    expect(claimStep(sending, ASKED, NOW)).toEqual({ kind: "under_way", by: "U0ANNA", id: "V0OTHER" });
    const mine = claimStep(sending, { ...ASKED, id: "V0OTHER" }, NOW);
    expect(mine.kind).toBe("under_way");
  });

  it("an unsure one of another confirmation is replaced (and handed back); its own is answered unsure", () => {
    const pending = {
      id: "V0OTHER",
      want: { on: false },
      by: "U0ANNA",
      at: NOW - 1000,
      state: "unsure" as const,
    };
    const step = claimStep({ ...NO_SWITCH, pending }, ASKED, NOW);
    expect(step.kind === "claimed" && step.replaced).toEqual(pending);
    expect(claimStep({ ...NO_SWITCH, pending }, { ...ASKED, id: "V0OTHER" }, NOW)).toEqual({
      kind: "unsure",
      pending,
    });
  });
});

describe("a confirmation over", () => {
  it("clears its pending, remembers its id (the newest kept), and records the last switch", () => {
    const pending = { ...ASKED, at: NOW, state: "sending" as const };
    const done = Array.from({ length: SWITCH_DONE_KEPT }, (_, index) => `V${index}`);
    const last = lastOf(ASKED, method("BITCOIN", { switchedOn: false }), NOW);
    const next = finished({ v: 1, done, pending }, ASKED.id, last);
    expect(next.pending).toBeUndefined();
    expect(next.done).toHaveLength(SWITCH_DONE_KEPT);
    expect(next.done.at(-1)).toBe("V0VIEW1");
    expect(next.done[0]).toBe("V1");
    expect(next.last).toEqual(last);
  });

  it("leaves another confirmation's pending alone", () => {
    const pending = { ...ASKED, id: "V0OTHER", at: NOW, state: "sending" as const };
    expect(finished({ v: 1, done: [], pending }, ASKED.id).pending).toEqual(pending);
    expect(markedUnsure({ v: 1, done: [], pending }, ASKED.id)).toBeUndefined();
    expect(markedUnsure({ v: 1, done: [], pending }, "V0OTHER")?.pending?.state).toBe("unsure");
  });

  it("keeps a surcharge the service shows with many decimals within the record's schema", () => {
    expect(lastOf(ASKED, method("BITCOIN", { extraCommissionPercent: "2.123456789" }), NOW).surcharge).toBe(
      "2.12345679",
    );
  });
});

describe("a 'not sure' switch settled by a fresh read", () => {
  const pending = { ...ASKED, at: NOW, state: "unsure" as const };
  const record: MethodSwitchState = { v: 1, done: [], pending };

  it("done when the read shows what it asked for", () => {
    const settled = settleStep(record, method("BITCOIN", { switchedOn: false }), NOW + 5000);
    expect(settled.kind).toBe("done");
    if (settled.kind !== "done") return;
    expect(settled.next.pending).toBeUndefined();
    expect(settled.next.last).toMatchObject({ id: "V0VIEW1", on: false, by: "U0ADMIN", at: NOW + 5000 });
    expect(settled.next.done).toEqual(["V0VIEW1"]);
  });

  it("left alone while not shown, given up after ten minutes", () => {
    const on = method("BITCOIN");
    expect(settleStep(record, on, NOW + UNSURE_GIVE_UP_MS - 1).kind).toBe("none");
    expect(settleStep(record, undefined, NOW + 1000).kind).toBe("none");
    const given = settleStep(record, on, NOW + UNSURE_GIVE_UP_MS);
    expect(given.kind).toBe("given_up");
    expect(given.kind === "given_up" && given.next).toEqual({ v: 1, done: ["V0VIEW1"] });
  });

  it("a sending switch is not for a read to settle", () => {
    const sending = { ...record, pending: { ...pending, state: "sending" as const } };
    expect(settleStep(sending, method("BITCOIN", { switchedOn: false }), NOW).kind).toBe("none");
  });
});
