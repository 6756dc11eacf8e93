import { describe, expect, it } from "vitest";
import {
  NotConnectedError,
  ServiceError,
  UnexpectedResponseError,
  UnreachableError,
} from "../../src/payments/errors.js";
import type { Invoice } from "../../src/payments/model.js";
import {
  beforeRead,
  CHECKED_LINE_REFRESH_MS,
  judgeRead,
  nextCheck,
  owedAttempts,
  redrawAll,
} from "../../src/watch/decide.js";
import { amountsFingerprint, MAX_INTERVAL_MS, type Watch, type WatchCard } from "../../src/watch/model.js";

const NOW = new Date("2026-11-25T10:00:00Z");
const limits = { intervalMs: 10_000, maxHours: 24, maxReadsPerSecond: 5 };

function invoice(state: string, paid = "1500", expiresInMs = 60 * 60_000): Invoice {
  return {
    id: "inv1",
    url: null,
    state,
    type: "purchase",
    method: null,
    requiredMethod: null,
    currency: "RUB",
    currencyConflict: null,
    amounts: {
      amount: { value: "1500", currency: "RUB" },
      remainingAmount: { value: paid, currency: "RUB" },
    },
    commissions: {},
    subtractFrom: null,
    description: null,
    extra: null,
    redirectUrl: null,
    callbackUrl: null,
    createdAt: {
      text: "2026-11-25 12:00:00",
      zone: "Europe/Moscow",
      epochSeconds: NOW.getTime() / 1000 - 60,
    },
    expiredAt: {
      text: "2026-11-25 14:00:00",
      zone: "Europe/Moscow",
      epochSeconds: (NOW.getTime() + expiresInMs) / 1000,
    },
    finalAt: null,
    apiVersion: "v2",
  };
}

const card = (owed?: WatchCard["owed"]): WatchCard => ({
  kind: "channel",
  channel: "C1",
  ts: "1.000100",
  user: "U1",
  postedState: "notpayed",
  ...(owed ? { owed } : {}),
});

function watch(shown: Invoice, fields: Partial<Watch> = {}): Watch {
  return {
    team: "T1",
    invoiceId: "inv1",
    register: "login",
    state: shown.state,
    amounts: amountsFingerprint(shown),
    startedAt: NOW.getTime() - 60_000,
    intervalMs: 10_000,
    lastCheckedAt: NOW.getTime() - 10_000,
    cardsUpdatedAt: NOW.getTime() - 10_000,
    cards: [card()],
    invoice: shown,
    ...fields,
  };
}

describe("beforeRead", () => {
  it("drops a watch with no cards, ends one watched WATCH_MAX_HOURS, reads the rest", () => {
    expect(beforeRead(watch(invoice("notpayed"), { cards: [] }), NOW.getTime(), limits)).toBe("drop");
    const old = watch(invoice("notpayed"), { startedAt: NOW.getTime() - 24 * 3_600_000 });
    expect(beforeRead(old, NOW.getTime(), limits)).toBe("end");
    expect(beforeRead(watch(invoice("notpayed")), NOW.getTime(), limits)).toBe("read");
  });
});

describe("judgeRead: every pair of states the service sends", () => {
  const STATES = ["notpayed", "processing", "wrongamount", "payed", "failed", "unavailable"];
  const FINAL = new Set(["payed", "failed", "unavailable"]);
  for (const from of STATES.filter((state) => !FINAL.has(state))) {
    for (const to of STATES) {
      it(`${from} -> ${to}`, () => {
        const judged = judgeRead(watch(invoice(from)), { invoice: invoice(to) }, NOW, limits);
        expect(judged.kind).toBe("seen");
        if (judged.kind !== "seen") return;
        expect(judged.state).toBe(to);
        expect(judged.final).toBe(FINAL.has(to));
        expect(judged.differs).toBe(from !== to);
        expect(judged.notice).toEqual(from === to ? undefined : { from, to });
        expect(judged.status.kind).toBe(FINAL.has(to) ? "ended" : "watching");
        if (judged.status.kind === "ended") expect(judged.status.reason).toBe("final");
      });
    }
  }

  it("a partial payment (the amount paid changes, the state does not) differs without a thread note", () => {
    const judged = judgeRead(
      watch(invoice("wrongamount", "500")),
      { invoice: invoice("wrongamount", "900") },
      NOW,
      limits,
    );
    expect(judged).toMatchObject({ kind: "seen", differs: true, notice: undefined, final: false });
  });

  it("an unpaid invoice past its expiry is shown as expired and ends the watch, with a note", () => {
    const judged = judgeRead(
      watch(invoice("notpayed")),
      { invoice: invoice("notpayed", "1500", -1000) },
      NOW,
      limits,
    );
    expect(judged).toMatchObject({
      kind: "seen",
      state: "expired",
      final: true,
      differs: true,
      notice: { from: "notpayed", to: "expired" },
      status: { kind: "ended", reason: "expired" },
    });
  });

  it("an unknown state is shown as it is, and watched on", () => {
    const judged = judgeRead(watch(invoice("notpayed")), { invoice: invoice("on_hold") }, NOW, limits);
    expect(judged).toMatchObject({ kind: "seen", state: "on_hold", final: false, notice: { to: "on_hold" } });
  });
});

describe("judgeRead: each kind of failed read", () => {
  const shown = invoice("notpayed");
  it.each([
    ["the workspace was disconnected", new NotConnectedError("T1")],
    ["the service refused the credentials", new ServiceError(["Auth error: wrong secret"])],
  ])("ends the watch when %s", (_why, error) => {
    expect(judgeRead(watch(shown), { error }, NOW, limits)).toEqual({
      kind: "end",
      reason: "credentials",
      status: { kind: "ended", reason: "credentials" },
    });
  });

  it.each([
    ["a time-out", new UnreachableError("timeout")],
    ["an HTML 502", new UnreachableError("http-status", 502)],
    ["broken JSON", new UnexpectedResponseError("not-json", "<html>")],
    ["another refusal", new ServiceError(["Invoice not found"])],
    ["a bug", new TypeError("x is undefined")],
  ])("reads again later, less often, after %s", (_why, error) => {
    const judged = judgeRead(watch(shown, { intervalMs: 10_000 }), { error }, NOW, limits);
    expect(judged).toEqual({ kind: "read_later", intervalMs: 15_000 });
    const slow = judgeRead(watch(shown, { intervalMs: MAX_INTERVAL_MS }), { error }, NOW, limits);
    expect(slow).toEqual({ kind: "read_later", intervalMs: MAX_INTERVAL_MS });
  });
});

describe("redrawAll", () => {
  const shown = watch(invoice("notpayed"));
  it("redraws on a final state, a change, or a stale last-checked line only", () => {
    expect(redrawAll({ final: true }, false, NOW.getTime(), shown)).toBe(true);
    expect(redrawAll({ final: false }, true, NOW.getTime(), shown)).toBe(true);
    expect(redrawAll({ final: false }, false, NOW.getTime(), shown)).toBe(false);
    expect(redrawAll({ final: false }, false, shown.cardsUpdatedAt + CHECKED_LINE_REFRESH_MS, shown)).toBe(
      true,
    );
  });
});

describe("nextCheck", () => {
  const shown = watch(invoice("notpayed"));
  const done = {
    checkedAtMs: NOW.getTime(),
    final: false,
    changed: false,
    redrawn: false,
    owedAttempts: undefined,
    retryAfterMs: 0,
    watchesOfRegister: 1,
  };

  it("ends a final watch once nothing is owed, and never while something is", () => {
    expect(nextCheck(shown, { ...done, final: true }, limits)).toEqual({ kind: "end" });
    expect(nextCheck(shown, { ...done, final: true, owedAttempts: 0 }, limits).kind).toBe("reschedule");
  });

  it("reads again at the register's fair pace: WATCH_INTERVAL_MS, or slower when the register has many watches", () => {
    expect(nextCheck(shown, done, limits)).toEqual({
      kind: "reschedule",
      dueAt: NOW.getTime() + 10_000,
      patch: { intervalMs: 10_000, lastCheckedAt: NOW.getTime() },
    });
    const busy = nextCheck(shown, { ...done, watchesOfRegister: 100 }, limits);
    expect(busy).toMatchObject({ dueAt: NOW.getTime() + 20_000 });
  });

  it("notes the redraw time only when every card took it", () => {
    expect(nextCheck(shown, { ...done, redrawn: true }, limits)).toMatchObject({
      patch: { cardsUpdatedAt: NOW.getTime() },
    });
    const owing = nextCheck(shown, { ...done, redrawn: true, owedAttempts: 0 }, limits);
    expect(owing.kind === "reschedule" ? owing.patch : undefined).not.toHaveProperty("cardsUpdatedAt");
  });

  it("tries what is owed sooner, backing off per attempt up to a minute, never before Retry-After", () => {
    const at = (attempts: number, retryAfterMs = 0, watchesOfRegister = 1000) => {
      const next = nextCheck(
        shown,
        { ...done, owedAttempts: attempts, retryAfterMs, watchesOfRegister },
        limits,
      );
      return next.kind === "reschedule" ? next.dueAt - NOW.getTime() : -1;
    };
    expect(at(0)).toBe(2000);
    expect(at(2)).toBe(8000);
    expect(at(10)).toBe(60_000);
    expect(at(0, 30_000)).toBe(30_000);
    // The next read comes first when it is sooner than the retry.
    expect(at(10, 0, 1)).toBe(10_000);
  });

  it("after a change, the next read is at WATCH_INTERVAL_MS again", () => {
    const slowed = watch(invoice("notpayed"), {
      intervalMs: 200_000,
      startedAt: NOW.getTime() - 2 * 3_600_000,
    });
    expect(nextCheck(slowed, { ...done, changed: true }, limits)).toMatchObject({
      patch: { intervalMs: 10_000 },
    });
  });
});

describe("owedAttempts", () => {
  it("is the most attempts among cards that still owe, undefined when none does", () => {
    expect(owedAttempts([card(), card({ redraw: false })])).toBeUndefined();
    expect(owedAttempts([card({ redraw: true }), card({ redraw: true, attempts: 3 })])).toBe(3);
  });
});
