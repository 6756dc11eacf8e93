import { describe, expect, it } from "vitest";
import { methodAlertButton } from "../../src/blocks/button-values.js";
import { METHOD_ALERT_ACTIONS } from "../../src/blocks/ids.js";
import {
  formatDuration,
  formatShare,
  type MethodAlertFacts,
  methodAlertMessage,
  methodClosedLine,
  methodFailingNote,
  methodOutsideMessage,
  methodSnoozedLine,
} from "../../src/blocks/method-watch.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords } from "../support/english-words.js";

const NOW = Date.parse("2026-11-28T12:00:00Z");
const FACTS: MethodAlertFacts = {
  method: { code: "BITCOIN", name: "Bitcoin" },
  register: "main",
  label: undefined,
  kind: "failure",
  window: { invoices: 14, failures: 9, wrongAmounts: 2 },
  before: { invoices: 400, failures: 24 },
  windowMinutes: 60,
  lastPaidAt: NOW - 42 * 60_000,
  now: NOW,
  usualQuietMs: 20 * 60_000,
  silenceLimitMs: 2 * 3_600_000,
  silenceMode: "usual",
  mention: ["U0ADMIN", "S0FINANCE"],
  zone: "Europe/Moscow",
};
const text = (value: unknown) => JSON.stringify(value);

describe("the method alert", () => {
  it("gives the figures against the usual rate, the last payment, mentions and three buttons", () => {
    const message = methodAlertMessage(FACTS);
    expectWithinBlockKitLimits(message);
    const shown = text(message.blocks);
    expect(shown).toContain("<@U0ADMIN> <!subteam^S0FINANCE>");
    expect(shown).toContain("*Bitcoin* `BITCOIN` is failing");
    expect(shown).toContain("9 of 14 invoices failed or were unavailable in the last 1 h (64 %)");
    expect(shown).toContain("Usually 6 % fail.");
    expect(shown).toContain("2 paid a wrong amount");
    expect(shown).toContain(`Last payment: <!date^${(NOW - 42 * 60_000) / 1000}^`);
    expect(shown).toContain("Europe/Moscow>");
    const actions = message.blocks.find((block) => block.type === "actions");
    const elements = actions && "elements" in actions ? actions.elements : [];
    expect(elements.map((one) => ("action_id" in one ? one.action_id : ""))).toEqual([
      METHOD_ALERT_ACTIONS.switchOff,
      METHOD_ALERT_ACTIONS.snooze,
      METHOD_ALERT_ACTIONS.methods,
    ]);
    const value = elements[0] && "value" in elements[0] ? elements[0].value : "";
    expect(methodAlertButton.schema.parse(JSON.parse(value ?? ""))).toEqual({ r: "main", c: "BITCOIN" });
    expect(message.text).toContain("Bitcoin");
  });

  it("says a silence against the usual quiet, names the register where there are several, in Russian too", () => {
    const silent: MethodAlertFacts = {
      ...FACTS,
      kind: "silence",
      label: "shop2",
      lastPaidAt: NOW - 190 * 60_000,
    };
    const en = text(methodAlertMessage(silent).blocks);
    expect(en).toContain("has not been paid for 3 h 10 min (cash register *shop2*)");
    expect(en).toContain("usually comes within 20 min; the watch speaks after 2 h");
    const ru = methodAlertMessage(silent, "ru");
    expectWithinBlockKitLimits(ru);
    expect(text(ru.blocks)).toContain("нет оплат уже 3 ч 10 мин (касса *shop2*)");
    expect(englishWords(ru, ["Bitcoin", "BITCOIN", "shop2", "Europe", "Moscow"])).toEqual([]);
  });

  it("escapes a method's name from the service", () => {
    const message = methodAlertMessage({ ...FACTS, method: { code: "X", name: "<!channel> *bold*" } });
    expect(text(message.blocks)).toContain("&lt;!channel&gt;");
    expect(text(message.blocks)).not.toContain("<!channel>");
  });
});

describe("the other messages", () => {
  it("closes an episode in its thread: calm again, or switched off", () => {
    const closed = {
      method: { code: "BITCOIN", name: "Bitcoin" },
      kind: "failure" as const,
      sharePercent: 40,
      calmMs: 1_800_000,
    };
    expect(methodClosedLine({ ...closed, how: "calm" }).text).toContain(
      "Bitcoin BITCOIN is back to normal: failures have stayed below 20 % for 30 min.",
    );
    expect(methodClosedLine({ ...closed, how: "off" }).text).toContain("is off at the service now");
    expect(methodClosedLine({ ...closed, how: "calm", kind: "silence" }, "ru").text).toContain(
      "снова приходят оплаты",
    );
  });

  it("tells a change made outside, surcharge and switch", () => {
    const message = methodOutsideMessage(
      [
        {
          method: { code: "BITCOIN", name: "Bitcoin" },
          before: { on: true, surcharge: "0" },
          after: { on: true, surcharge: "10" },
        },
        {
          method: { code: "USDTTRC", name: "USDTTRC" },
          before: { on: true, surcharge: "1.5" },
          after: { on: false, surcharge: "1.5" },
        },
      ],
      undefined,
    );
    expectWithinBlockKitLimits(message);
    expect(message.text).toContain("Bitcoin BITCOIN surcharge 0 % → 10 %, made outside Kassa");
    expect(message.text).toContain("USDTTRC switched off, outside Kassa");
    const ru = methodOutsideMessage(
      [
        {
          method: { code: "BITCOIN", name: "Bitcoin" },
          before: { on: true, surcharge: "0" },
          after: { on: true, surcharge: "2.5" },
        },
      ],
      "shop2",
      "ru",
    );
    expect(ru.text).toContain("надбавка 0 % → 2,5 %");
  });

  it("notes failing reads and a snooze", () => {
    expect(methodFailingNote(undefined).text).toContain(
      "has not been able to read the payment service for an hour",
    );
    const snoozed = methodSnoozedLine({
      user: "U0MEMBER",
      method: { code: "BITCOIN", name: "BITCOIN" },
      until: NOW,
      zone: "UTC",
    });
    expect(text(snoozed.blocks)).toContain("<@U0MEMBER> snoozed the alerts about `BITCOIN` until <!date^");
  });

  it.each([
    [60_000, "1 min"],
    [20 * 60_000, "20 min"],
    [3_600_000, "1 h"],
    [190 * 60_000, "3 h 10 min"],
    [26 * 3_600_000, "26 h"],
    [50 * 3_600_000, "2 d 2 h"],
  ])("%i ms reads %s", (ms, shown) => {
    expect(formatDuration(ms, "en")).toBe(shown);
  });

  it.each([
    [9, 14, "64 %"],
    [0, 10, "0 %"],
    [1, 400, "<1 %"],
    [0, 0, "0 %"],
  ])("%i of %i is %s", (part, whole, shown) => {
    expect(formatShare(part, whole)).toBe(shown);
  });
});
