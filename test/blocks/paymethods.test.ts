import type { types } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import {
  manyMethods,
  renderMethodsV2,
  renderMethodsV3,
  type SampleMethod,
  sampleMethods,
} from "../../sandbox/fake-payments.js";
import type { SlackMessage } from "../../src/blocks/message.js";
import {
  buildPaymethodsMessage,
  methodLine,
  PAYMETHODS_ACTIONS,
  paymethodsHelpMessage,
  paymethodsNoMatchMessage,
  paymethodsUsageMessage,
  percentSum,
  sortMethods,
} from "../../src/blocks/paymethods.js";
import { filterMethods, filterText, type MethodFilter } from "../../src/payments/method-filter.js";
import type { PaymentMethod } from "../../src/payments/model.js";
import { methodsFromV2, methodsFromV3 } from "../../src/payments/normalize.js";
import { methodListV2Schema, methodListV3Schema } from "../../src/payments/schemas.js";
import { PaymethodsPages } from "../../src/paymethods/pages.js";
import { parsePaymethodsText } from "../../src/paymethods/text.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

type Version = "v2" | "v3";
const VERSIONS: Version[] = ["v2", "v3"];

const FETCHED_AT = new Date("2024-05-01T12:00:00Z");
const READ_AT =
  "Read from the payment service <!date^1714564800^{date_short_pretty} {time}|2024-05-01 12:00:00 UTC>.";
const CONTEXT_TAIL = `Fixed fees are in each method's currency; the sum adds the percentages. ${READ_AT}`;

const ALL: MethodFilter = { kind: "all" };
const ENABLED: MethodFilter = { kind: "enabled" };
const DISABLED: MethodFilter = { kind: "disabled" };
const text = (value: string): MethodFilter => ({ kind: "text", text: value });

/** The sandbox register's order: enabled by name, then the disabled ones by name. */
const SAMPLE_ORDER = [
  "BITCOIN",
  "BITCOINCASH",
  "BNBSMARTCHAIN",
  "BTCCRYPTOBOT",
  "CARDRUBP2P",
  "CARDTRYP2P",
  "CRYSTALPAY",
  "DASH",
  "DOGECOIN",
  "ETHEREUM",
  "LITECOIN",
  "LZTMARKET",
  "POLYGON",
  "TONCRYPTOBOT",
  "TRON",
  "USDCTRC",
  "USDTTRC",
  "ETHCRYPTOBOT",
  "TEST",
  "USDTCRYPTOBOT",
];

/** A method of the sandbox register's kind, with defaults for what a test does not care about. */
function sample(code: string, name: string, overrides: Partial<SampleMethod> = {}): SampleMethod {
  return {
    code,
    name,
    currency: "RUB",
    enabled: true,
    commissionPercent: "1",
    commission: "0",
    extraCommissionPercent: "0",
    minimalStatusLevel: 0,
    accuracy: 2,
    ...overrides,
  };
}

function rawAnswer(version: Version, samples: SampleMethod[]): Record<string, unknown> {
  return JSON.parse(version === "v2" ? renderMethodsV2(samples) : renderMethodsV3(samples)) as Record<
    string,
    unknown
  >;
}

function normalise(version: Version, raw: unknown): PaymentMethod[] {
  return version === "v2"
    ? methodsFromV2(methodListV2Schema.parse(raw)).methods
    : methodsFromV3(methodListV3Schema.parse(raw)).methods;
}

/** The methods as the service would send them in `version`, parsed and normalised like the client does. */
function methodsOf(version: Version, samples: SampleMethod[]): PaymentMethod[] {
  return normalise(version, rawAnswer(version, samples));
}

type V3Entry = {
  settings: { in: { enabled: boolean; extra_commissions: { percent: string; amount: string } } };
  in: { enabled: boolean; limits: { min: string | null; max: string | null } | null };
};

/** One v3 method, with its raw entry edited first. */
function v3Method(one: SampleMethod, edit: (entry: V3Entry) => void): PaymentMethod {
  const raw = rawAnswer("v3", [one]) as { items: Record<string, V3Entry> };
  const entry = raw.items[one.code];
  if (!entry) throw new Error(`no ${one.code}`);
  edit(entry);
  const [method] = normalise("v3", raw);
  if (!method) throw new Error("no method");
  return method;
}

function byCode(methods: PaymentMethod[], code: string): PaymentMethod {
  const found = methods.find((method) => method.code === code);
  if (!found) throw new Error(`no method ${code}`);
  return found;
}

/** Every message a test builds goes through the Block Kit limits. */
function build(methods: PaymentMethod[], filter: MethodFilter, page = 1): SlackMessage | undefined {
  const message = buildPaymethodsMessage(methods, { filter, page }, { fetchedAt: FETCHED_AT });
  if (message) expectWithinBlockKitLimits(message);
  return message;
}

function page(methods: PaymentMethod[], filter: MethodFilter, pageNumber = 1): SlackMessage {
  const message = build(methods, filter, pageNumber);
  if (!message) throw new Error("expected a message, got undefined");
  return message;
}

function header(message: SlackMessage): string {
  const block = message.blocks[0];
  if (block?.type !== "header") throw new Error("the first block is not a header");
  return block.text.text;
}

function sectionTexts(message: SlackMessage): string[] {
  return message.blocks
    .filter((block): block is types.SectionBlock => block.type === "section")
    .map((block) => block.text?.text ?? "");
}

/** One entry per method, as methodLine wrote it (an enabled method takes two lines). */
function methodLines(message: SlackMessage): string[] {
  return sectionTexts(message).flatMap((section) =>
    section.split(/\n(?=:white_check_mark: |:no_entry_sign: )/),
  );
}

function codes(message: SlackMessage): string[] {
  return methodLines(message).map((line) => {
    const match = /`([^`]*)`/.exec(line);
    if (!match?.[1]) throw new Error(`no code in ${line}`);
    return match[1];
  });
}

function contextText(message: SlackMessage): string {
  const block = message.blocks.find((candidate) => candidate.type === "context");
  if (block?.type !== "context") throw new Error("no context block");
  const [element] = block.elements;
  if (!element || !("text" in element) || typeof element.text !== "string")
    throw new Error("no context text");
  return element.text;
}

type ButtonSummary = { action: string; label: string; value: unknown };
function buttons(message: SlackMessage): ButtonSummary[] {
  const actions = message.blocks.filter((block): block is types.ActionsBlock => block.type === "actions");
  expect(actions).toHaveLength(1);
  return (actions[0]?.elements ?? []).map((element) => {
    if (element.type !== "button") throw new Error(`not a button: ${element.type}`);
    return {
      action: element.action_id ?? "",
      label: element.text.text,
      value: JSON.parse(element.value ?? ""),
    };
  });
}

const previous = (f: string, p: number): ButtonSummary => ({
  action: PAYMETHODS_ACTIONS.previous,
  label: "◀ Previous",
  value: { f, p },
});
const next = (f: string, p: number): ButtonSummary => ({
  action: PAYMETHODS_ACTIONS.next,
  label: "Next ▶",
  value: { f, p },
});
const refresh = (f: string, p: number): ButtonSummary => ({
  action: PAYMETHODS_ACTIONS.refresh,
  label: "Refresh",
  value: { f, p },
});

const LINES = {
  BITCOIN:
    ":white_check_mark: *Bitcoin* `BITCOIN` · BTC\n      commission 1.5 % + 0.000004 BTC  ·  extra 0.5 %  ·  *sum 2 % + 0.000004 BTC*",
  BTCCRYPTOBOT:
    ":white_check_mark: *BTC (CryptoBot)* `BTCCRYPTOBOT` · BTC\n      commission 3 % + 0.0000001 BTC  ·  extra 0 %  ·  *sum 3 % + 0.0000001 BTC*  ·  min. status level 2",
  CARDRUBP2P:
    ":white_check_mark: *Card RUB P2P* `CARDRUBP2P` · RUB\n      commission 5.5 %  ·  extra 1.5 %  ·  *sum 7 %*",
  CARDTRYP2P:
    ":white_check_mark: *Card TRY P2P* `CARDTRYP2P` · TRY\n      commission 7 %  ·  extra 0 %  ·  *sum 7 %*  ·  min. status level 1",
  USDTTRC:
    ":white_check_mark: *USDT TRC-20* `USDTTRC` · USDT\n      commission 2 % + 1 USDT  ·  extra 0.2 %  ·  *sum 2.2 % + 1 USDT*",
  TRON: ":white_check_mark: *Tron* `TRON` · TRX\n      commission 1.5 % + 2 TRX  ·  extra 0 %  ·  *sum 1.5 % + 2 TRX*",
  ETHCRYPTOBOT: ":no_entry_sign: *ETH (CryptoBot)* `ETHCRYPTOBOT` · ETH · _disabled_",
  TEST: ":no_entry_sign: *Test method* `TEST` · RUB · _disabled_",
} as const;

describe("sortMethods", () => {
  it.each(VERSIONS)(
    "puts the sandbox register's enabled methods first, each group by name (%s)",
    (version) => {
      const methods = methodsOf(version, sampleMethods());
      expect(sortMethods(methods).map((method) => method.code)).toEqual(SAMPLE_ORDER);
    },
  );

  it("compares names case-insensitively, then by code", () => {
    const methods = methodsOf("v2", [
      sample("Z1", "zeta"),
      sample("D1", "Aardvark", { enabled: false }),
      sample("B1", "Beta"),
      sample("A2", "alpha"),
      sample("A1", "ALPHA"),
    ]);
    expect(sortMethods(methods).map((method) => method.code)).toEqual(["A1", "A2", "B1", "Z1", "D1"]);
  });

  it("does not reorder the list it is given", () => {
    const methods = methodsOf("v2", sampleMethods());
    const before = methods.map((method) => method.code);
    sortMethods(methods);
    expect(methods.map((method) => method.code)).toEqual(before);
  });
});

describe("filterMethods and filterText", () => {
  const methods = methodsOf("v2", sampleMethods());
  const filtered = (filter: MethodFilter) => filterMethods(methods, filter).map((method) => method.code);

  it("keeps all, the enabled or the disabled methods", () => {
    expect(filtered(ALL)).toEqual(sampleMethods().map((method) => method.code));
    expect(filtered(ENABLED)).toHaveLength(17);
    expect(filtered(DISABLED)).toEqual(["ETHCRYPTOBOT", "USDTCRYPTOBOT", "TEST"]);
  });

  it("matches part of a code, name or currency, ignoring case", () => {
    expect(filtered(text("btc"))).toEqual(["BITCOIN", "BTCCRYPTOBOT"]);
    expect(filtered(text("BtC"))).toEqual(["BITCOIN", "BTCCRYPTOBOT"]);
    expect(filtered(text("cryptobot"))).toEqual([
      "TONCRYPTOBOT",
      "BTCCRYPTOBOT",
      "ETHCRYPTOBOT",
      "USDTCRYPTOBOT",
    ]);
    expect(filtered(text("trc-20"))).toEqual(["USDCTRC", "USDTTRC"]);
    expect(filtered(text("try"))).toEqual(["CARDTRYP2P"]);
    expect(filtered(text("nothing like it"))).toEqual([]);
  });

  it("writes the filter as the user would type it", () => {
    expect(filterText(ALL)).toBe("all");
    expect(filterText(ENABLED)).toBe("enabled");
    expect(filterText(DISABLED)).toBe("disabled");
    expect(filterText(text("card rub"))).toBe("card rub");
  });
});

describe("percentSum", () => {
  it.each([
    ["0.1", "0.2", "0.3"],
    ["2", "0.2", "2.2"],
    ["1.5", "0.5", "2"],
    ["5.5", "1.5", "7"],
    ["0", "0", "0"],
    ["0.0000001", "0", "0.0000001"],
    ["3.33", "0.000000001", "3.330000001"],
  ])("%s %% + %s %% = %s %% exactly (v2 numbers)", (commissionPercent, extraCommissionPercent, sum) => {
    const [method] = methodsOf("v2", [sample("X", "X", { commissionPercent, extraCommissionPercent })]);
    if (!method) throw new Error("no method");
    expect(percentSum(method)).toBe(sum);
  });

  it("adds v3 decimal strings exactly too", () => {
    const [method] = methodsOf("v3", [
      sample("X", "X", { commissionPercent: "0.1", extraCommissionPercent: "0.2" }),
    ]);
    if (!method) throw new Error("no method");
    expect(percentSum(method)).toBe("0.3");
  });
});

describe("methodLine", () => {
  const v2 = methodsOf("v2", sampleMethods());

  it.each(Object.entries(LINES))("writes the breakdown of %s in exact decimals", (code, line) => {
    expect(methodLine(byCode(v2, code))).toBe(line);
  });

  it("writes 0.1 % + 0.2 % as a sum of 0.3 %", () => {
    const [method] = methodsOf("v2", [
      sample("X", "Float trap", { commissionPercent: "0.1", extraCommissionPercent: "0.2" }),
    ]);
    if (!method) throw new Error("no method");
    expect(methodLine(method)).toBe(
      ":white_check_mark: *Float trap* `X` · RUB\n      commission 0.1 %  ·  extra 0.2 %  ·  *sum 0.3 %*",
    );
  });

  it("hides a minimal status level of -1 (nobody needs one)", () => {
    const [method] = methodsOf("v2", [sample("ANYONE", "Anyone", { minimalStatusLevel: -1 })]);
    if (!method) throw new Error("no method");
    expect(methodLine(method)).toBe(
      ":white_check_mark: *Anyone* `ANYONE` · RUB\n      commission 1 %  ·  extra 0 %  ·  *sum 1 %*",
    );
  });

  it("groups the digits of a large fixed fee and keeps every decimal", () => {
    const [method] = methodsOf("v2", [sample("BIG", "Big", { commission: "1234567.0000001" })]);
    if (!method) throw new Error("no method");
    expect(methodLine(method)).toBe(
      ":white_check_mark: *Big* `BIG` · RUB\n      commission 1 % + 1,234,567.0000001 RUB  ·  extra 0 %  ·  *sum 1 % + 1,234,567.0000001 RUB*",
    );
  });

  it("gives the same line for v2 and v3 where the data agree, plus the v3 limits", () => {
    const v3 = methodsOf("v3", sampleMethods());
    for (const one of sampleMethods()) {
      const fromV2 = methodLine(byCode(v2, one.code));
      const fromV3 = methodLine(byCode(v3, one.code));
      const limits =
        one.currency === "RUB"
          ? "10.00 – 300,000.00 RUB"
          : one.currency === "TRY"
            ? "0.0001 – 100.00 TRY"
            : `0.0001 – 100 ${one.currency}`;
      expect(fromV3).toBe(one.enabled ? `${fromV2}  ·  limits ${limits}` : fromV2);
    }
  });

  it("writes the v3 limits of BITCOIN and CARDRUBP2P", () => {
    const v3 = methodsOf("v3", sampleMethods());
    expect(methodLine(byCode(v3, "BITCOIN"))).toBe(`${LINES.BITCOIN}  ·  limits 0.0001 – 100 BTC`);
    expect(methodLine(byCode(v3, "CARDRUBP2P"))).toBe(
      `${LINES.CARDRUBP2P}  ·  limits 10.00 – 300,000.00 RUB`,
    );
  });

  it('writes an open v3 limit as "up to" or "from", and none when both are missing or "0"', () => {
    const bitcoin = sampleMethods().find((one) => one.code === "BITCOIN");
    if (!bitcoin) throw new Error("no BITCOIN");
    const setLimits = (limits: { min: string | null; max: string | null } | null) => (entry: V3Entry) => {
      entry.in.limits = limits;
    };
    expect(methodLine(v3Method(bitcoin, setLimits({ min: null, max: "100" })))).toBe(
      `${LINES.BITCOIN}  ·  limits up to 100 BTC`,
    );
    expect(methodLine(v3Method(bitcoin, setLimits({ min: "0.0001", max: null })))).toBe(
      `${LINES.BITCOIN}  ·  limits from 0.0001 BTC`,
    );
    expect(methodLine(v3Method(bitcoin, setLimits({ min: "0.0001", max: "0" })))).toBe(
      `${LINES.BITCOIN}  ·  limits from 0.0001 BTC`,
    );
    // The docs' own example: an enabled method with min "0" and max "0" has no limit, not "0 – 0".
    expect(methodLine(v3Method(bitcoin, setLimits({ min: "0", max: "0" })))).toBe(LINES.BITCOIN);
    // A list cached before "0" was read as no limit still shows none.
    const cachedZero = { ...bitcoin, code: "BITCOIN" };
    expect(
      methodLine({
        ...v3Method(cachedZero, setLimits(null)),
        limits: { min: { value: "0", currency: "BTC" }, max: { value: "0", currency: "BTC" } },
      }),
    ).toBe(LINES.BITCOIN);
    expect(methodLine(v3Method(bitcoin, setLimits({ min: null, max: null })))).toBe(LINES.BITCOIN);
    expect(methodLine(v3Method(bitcoin, setLimits(null)))).toBe(LINES.BITCOIN);
  });

  it("adds the v3 extra fixed fee after the extra percent and the sum", () => {
    const card = sampleMethods().find((one) => one.code === "CARDRUBP2P");
    if (!card) throw new Error("no CARDRUBP2P");
    const method = v3Method(card, (entry) => {
      entry.settings.in.extra_commissions.amount = "25.5";
    });
    expect(methodLine(method)).toBe(
      ":white_check_mark: *Card RUB P2P* `CARDRUBP2P` · RUB\n      commission 5.5 %  ·  extra 1.5 % + 25.50 RUB  ·  *sum 7 % + 25.50 RUB*  ·  limits 10.00 – 300,000.00 RUB",
    );
  });

  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
  ])("v3: settings.in.enabled %s, in.enabled %s -> shown enabled: %s", (merchant, service, enabled) => {
    const bitcoin = sampleMethods().find((one) => one.code === "BITCOIN");
    if (!bitcoin) throw new Error("no BITCOIN");
    const line = methodLine(
      v3Method(bitcoin, (entry) => {
        entry.settings.in.enabled = merchant;
        entry.in.enabled = service;
      }),
    );
    expect(line).toBe(
      enabled
        ? `${LINES.BITCOIN}  ·  limits 0.0001 – 100 BTC`
        : ":no_entry_sign: *Bitcoin* `BITCOIN` · BTC · _disabled_",
    );
  });
});

describe("buildPaymethodsMessage: the sandbox register", () => {
  it.each(VERSIONS)("lists every method on one page with counts, context and Refresh (%s)", (version) => {
    const message = page(methodsOf(version, sampleMethods()), ALL);
    expect(message.response_type).toBe("in_channel");
    expect(header(message)).toBe("Payment methods: 17 enabled, 3 disabled");
    expect(message.blocks.map((block) => block.type)).toEqual([
      "header",
      "section",
      "section",
      "section",
      "section",
      "context",
      "actions",
    ]);
    expect(sectionTexts(message).map((section) => methodLinesOf(section))).toEqual([5, 5, 5, 5]);
    expect(codes(message)).toEqual(SAMPLE_ORDER);
    expect(contextText(message)).toBe(`Methods 1–20 of 20, page 1 of 1. ${CONTEXT_TAIL}`);
    expect(buttons(message)).toEqual([refresh("all", 1)]);
    expect(message.text).toBe(
      "Payment methods: 17 enabled, 3 disabled: BITCOIN 2 %, BITCOINCASH 1.5 %, BNBSMARTCHAIN 1.5 %, BTCCRYPTOBOT 3 %, CARDRUBP2P 7 %, CARDTRYP2P 7 %, CRYSTALPAY 0 %, DASH 1.5 %, DOGECOIN 1.5 %, ETHEREUM 1.5 %, LITECOIN 1.5 %, LZTMARKET 3 %, POLYGON 1.5 %, TONCRYPTOBOT 3 %, TRON 1.5 %, USDCTRC 2 %, USDTTRC 2.2 %, ETHCRYPTOBOT disabled, TEST disabled, USDTCRYPTOBOT disabled",
    );
  });

  it("shows the lines methodLine writes, disabled ones last", () => {
    const methods = methodsOf("v2", sampleMethods());
    const lines = methodLines(page(methods, ALL));
    expect(lines).toEqual(sortMethods(methods).map((method) => methodLine(method)));
    expect(lines[0]).toBe(LINES.BITCOIN);
    expect(lines.slice(17)).toEqual([
      LINES.ETHCRYPTOBOT,
      LINES.TEST,
      ":no_entry_sign: *USDT (CryptoBot)* `USDTCRYPTOBOT` · USDT · _disabled_",
    ]);
    expect(lines.slice(0, 17).every((line) => line.startsWith(":white_check_mark: "))).toBe(true);
  });

  it("gives v2 and v3 the same list apart from the v3 limits", () => {
    const v2 = page(methodsOf("v2", sampleMethods()), ALL);
    const v3 = page(methodsOf("v3", sampleMethods()), ALL);
    expect(header(v3)).toBe(header(v2));
    expect(v3.text).toBe(v2.text);
    expect(buttons(v3)).toEqual(buttons(v2));
    expect(contextText(v3)).toBe(contextText(v2));
    expect(methodLines(v3).map((line) => line.replace(/ {2}· {2}limits [^\n]*$/, ""))).toEqual(
      methodLines(v2),
    );
  });

  it("v3: lists a method the service disabled with the disabled ones", () => {
    const samples = sampleMethods().map((one) =>
      one.code === "TRON" ? { ...one, serviceDisabled: true } : one,
    );
    const message = page(methodsOf("v3", samples), ALL);
    expect(header(message)).toBe("Payment methods: 16 enabled, 4 disabled");
    expect(codes(message).slice(15)).toEqual(["USDTTRC", "ETHCRYPTOBOT", "TEST", "TRON", "USDTCRYPTOBOT"]);
    expect(methodLines(message)[18]).toBe(":no_entry_sign: *Tron* `TRON` · TRX · _disabled_");
    expect(message.text).toContain(", TEST disabled, TRON disabled, USDTCRYPTOBOT disabled");
  });

  it("describes the enabled and disabled filters in the header", () => {
    const methods = methodsOf("v2", sampleMethods());
    const enabled = page(methods, ENABLED);
    expect(header(enabled)).toBe("Payment methods (enabled only): 17 enabled, 0 disabled");
    expect(codes(enabled)).toEqual(SAMPLE_ORDER.slice(0, 17));
    expect(buttons(enabled)).toEqual([refresh("enabled", 1)]);

    const disabled = page(methods, DISABLED);
    expect(header(disabled)).toBe("Payment methods (disabled only): 0 enabled, 3 disabled");
    expect(codes(disabled)).toEqual(["ETHCRYPTOBOT", "TEST", "USDTCRYPTOBOT"]);
    expect(contextText(disabled)).toBe(`Methods 1–3 of 3, page 1 of 1. ${CONTEXT_TAIL}`);
    expect(buttons(disabled)).toEqual([refresh("disabled", 1)]);
    expect(disabled.text).toBe(
      "Payment methods (disabled only): 0 enabled, 3 disabled: ETHCRYPTOBOT disabled, TEST disabled, USDTCRYPTOBOT disabled",
    );
  });

  it("describes a text filter in the header and keeps it in the buttons", () => {
    const message = page(methodsOf("v2", sampleMethods()), text("btc"));
    expect(header(message)).toBe("Payment methods matching “btc”: 2 enabled, 0 disabled");
    expect(methodLines(message)).toEqual([LINES.BITCOIN, LINES.BTCCRYPTOBOT]);
    expect(buttons(message)).toEqual([refresh("btc", 1)]);
    expect(message.text).toBe(
      "Payment methods matching “btc”: 2 enabled, 0 disabled: BITCOIN 2 %, BTCCRYPTOBOT 3 %",
    );

    const rub = page(methodsOf("v2", sampleMethods()), text("rub"));
    expect(header(rub)).toBe("Payment methods matching “rub”: 3 enabled, 1 disabled");
    expect(codes(rub)).toEqual(["CARDRUBP2P", "CRYSTALPAY", "LZTMARKET", "TEST"]);
  });
});

/** How many methods one section lists. */
function methodLinesOf(section: string): number {
  return section.split(/\n(?=:white_check_mark: |:no_entry_sign: )/).length;
}

describe("buildPaymethodsMessage: nothing to show", () => {
  it("says so, within limits, when the register has no methods", () => {
    const message = page([], ALL);
    expect(header(message)).toBe("Payment methods: 0 enabled, 0 disabled");
    expect(sectionTexts(message)).toEqual(["_No payment methods to show._"]);
    expect(contextText(message)).toBe(CONTEXT_TAIL);
    expect(buttons(message)).toEqual([refresh("all", 1)]);
    expect(message.text).toBe("Payment methods: 0 enabled, 0 disabled");
    expect(message.response_type).toBe("in_channel");
  });

  it("says so for a keyword filter that keeps nothing", () => {
    const allDisabled = methodsOf("v2", [sample("OFF", "Off", { enabled: false })]);
    const message = page(allDisabled, ENABLED);
    expect(header(message)).toBe("Payment methods (enabled only): 0 enabled, 0 disabled");
    expect(sectionTexts(message)).toEqual(["_No payment methods to show._"]);
    expect(buttons(message)).toEqual([refresh("enabled", 1)]);

    const noneDisabled = page(methodsOf("v2", [sample("ON", "On")]), DISABLED, 3);
    expect(header(noneDisabled)).toBe("Payment methods (disabled only): 0 enabled, 0 disabled");
    expect(buttons(noneDisabled)).toEqual([refresh("disabled", 1)]);
  });

  it("returns undefined for a text filter that matches nothing", () => {
    expect(build(methodsOf("v2", sampleMethods()), text("paypal"))).toBeUndefined();
    expect(build(methodsOf("v3", sampleMethods()), text("paypal"))).toBeUndefined();
    expect(build([], text("btc"))).toBeUndefined();
  });
});

describe("buildPaymethodsMessage: entries left out", () => {
  it("names payout-only methods as not available for payments and counts unreadable entries", () => {
    const methods = methodsOf("v3", sampleMethods().slice(0, 3));
    const message = buildPaymethodsMessage(
      methods,
      { filter: ALL, page: 1 },
      { fetchedAt: FETCHED_AT, leftOut: { payoutOnly: ["CARDRUBPAYOUT", "USDT_*OUT*"], unreadable: 1 } },
    );
    if (!message) throw new Error("no message");
    expectWithinBlockKitLimits(message);
    expect(header(message)).toBe("Payment methods: 3 enabled, 0 disabled");
    expect(contextText(message)).toBe(
      `Methods 1–3 of 3, page 1 of 1. Not listed: 2 payout-only methods (not available for payments): \`CARDRUBPAYOUT\`, \`USDT_*OUT*\`. 1 method could not be read from the payment service's answer and is not shown. ${CONTEXT_TAIL}`,
    );
  });

  it("stays within limits with hundreds of payout-only codes", () => {
    const payoutOnly = Array.from({ length: 300 }, (_, index) => `PAYOUT${"X".repeat(60)}${index}`);
    const message = buildPaymethodsMessage(
      [],
      { filter: ALL, page: 1 },
      { fetchedAt: FETCHED_AT, leftOut: { payoutOnly, unreadable: 12 } },
    );
    if (!message) throw new Error("no message");
    expectWithinBlockKitLimits(message);
    expect(contextText(message)).toContain("Not listed: 300 payout-only methods");
    expect(contextText(message)).toContain(", and 290 more.");
  });

  it("leaves out a minimal status level the service did not send", () => {
    const [method] = methodsOf("v3", sampleMethods().slice(0, 1));
    if (!method) throw new Error("no method");
    expect(methodLine({ ...method, minimalStatusLevel: null })).not.toContain("status level");
  });
});

describe("buildPaymethodsMessage: hostile data", () => {
  it("keeps the top-level text within 3000 characters when codes are full of & and <", () => {
    const samples = Array.from({ length: 20 }, (_, index) =>
      sample(`P&L_${index}_${"<&".repeat(150)}`, `Method ${index}`),
    );
    const message = page(methodsOf("v2", samples), ALL);
    expect(message.text.length).toBeLessThanOrEqual(3000);
    expect(message.text).not.toMatch(/<|&(?!amp;|lt;|gt;)/);
    expectWithinBlockKitLimits(message);
  });

  it("shows page 1 for a page that is not a number", () => {
    const message = page(methodsOf("v2", manyMethods(60)), ALL, Number.NaN);
    expect(message.text).toContain("(page 1 of 3)");
  });
});

describe("buildPaymethodsMessage: 60 methods", () => {
  const methods = methodsOf("v2", manyMethods(60));
  const pages = [1, 2, 3].map((number) => page(methods, ALL, number));

  it("splits them into 3 pages of 20, 5 per section, every page within limits", () => {
    for (const message of pages) {
      expect(message.blocks.map((block) => block.type)).toEqual([
        "header",
        "section",
        "section",
        "section",
        "section",
        "context",
        "actions",
      ]);
      expect(sectionTexts(message).map(methodLinesOf)).toEqual([5, 5, 5, 5]);
      expect(header(message)).toBe("Payment methods: 48 enabled, 12 disabled");
    }
    const shown = pages.flatMap(codes);
    expect(shown).toEqual(sortMethods(methods).map((method) => method.code));
    expect(new Set(shown).size).toBe(60);
  });

  it("shows the enabled methods before the disabled ones across pages", () => {
    const disabledPerPage = pages.map(
      (message) => methodLines(message).filter((line) => line.startsWith(":no_entry_sign: ")).length,
    );
    expect(disabledPerPage).toEqual([0, 0, 12]);
    const third = methodLines(pages[2] as SlackMessage);
    expect(third.slice(0, 8).every((line) => line.startsWith(":white_check_mark: "))).toBe(true);
    expect(third.slice(8).every((line) => line.startsWith(":no_entry_sign: "))).toBe(true);
  });

  it("says which methods and page each one shows", () => {
    expect(pages.map(contextText)).toEqual([
      `Methods 1–20 of 60, page 1 of 3. ${CONTEXT_TAIL}`,
      `Methods 21–40 of 60, page 2 of 3. ${CONTEXT_TAIL}`,
      `Methods 41–60 of 60, page 3 of 3. ${CONTEXT_TAIL}`,
    ]);
    expect(
      pages[0]?.text.startsWith("Payment methods: 48 enabled, 12 disabled (page 1 of 3): METHOD001 0.35 %, "),
    ).toBe(true);
    expect(pages[2]?.text.endsWith(", METHOD050 disabled, METHOD055 disabled, METHOD060 disabled")).toBe(
      true,
    );
    expect(pages[1]?.text.startsWith("Payment methods: 48 enabled, 12 disabled (page 2 of 3): ")).toBe(true);
  });

  it("offers Next on the first page, Previous and Next in the middle, Previous on the last, Refresh on all", () => {
    expect(pages.map(buttons)).toEqual([
      [next("all", 2), refresh("all", 1)],
      [previous("all", 1), next("all", 3), refresh("all", 2)],
      [previous("all", 2), refresh("all", 3)],
    ]);
  });

  it("keeps a text filter in every button, readable by the command parser", () => {
    // Two thirds of the methods are in RUB: 40 methods, 2 pages.
    const first = page(methods, text("rub"), 1);
    const second = page(methods, text("rub"), 2);
    expect(header(first)).toBe("Payment methods matching “rub”: 32 enabled, 8 disabled");
    expect(buttons(first)).toEqual([next("rub", 2), refresh("rub", 1)]);
    expect(buttons(second)).toEqual([previous("rub", 1), refresh("rub", 2)]);
    for (const button of [...buttons(first), ...buttons(second)]) {
      const { f } = button.value as { f: string };
      expect(parsePaymethodsText(f)).toEqual({ kind: "list", filter: text("rub") });
    }
    for (const button of buttons(page(methods, DISABLED))) {
      const { f } = button.value as { f: string };
      expect(parsePaymethodsText(f)).toEqual({ kind: "list", filter: DISABLED });
    }
  });

  it.each([
    [0, 1],
    [-3, 1],
    [1, 1],
    [2.9, 2],
    [3, 3],
    [4, 3],
    [99, 3],
  ])("clamps page %s to page %s", (asked, shown) => {
    const message = page(methods, ALL, asked);
    expect(message).toEqual(pages[shown - 1]);
    expect(contextText(message)).toContain(`page ${shown} of 3.`);
  });
});

describe("buildPaymethodsMessage: what the service sends is text, never markup", () => {
  const EVIL_NAME = "Evil <!channel> & <@U1>";

  it("escapes a method's name and code in the blocks and the top-level text", () => {
    const methods = methodsOf("v2", [
      sample("P&L<!here>", EVIL_NAME),
      sample("SAFE", "Safe <https://evil.example|click>", { enabled: false }),
    ]);
    const message = page(methods, ALL);
    expect(methodLines(message)).toEqual([
      ":white_check_mark: *Evil &lt;!channel&gt; &amp; &lt;@U1&gt;* `P&amp;L&lt;!here&gt;` · RUB\n      commission 1 %  ·  extra 0 %  ·  *sum 1 %*",
      ":no_entry_sign: *Safe &lt;https://evil.example|click&gt;* `SAFE` · RUB · _disabled_",
    ]);
    expect(message.text).toBe(
      "Payment methods: 1 enabled, 1 disabled: P&amp;L&lt;!here&gt; 1 %, SAFE disabled",
    );
    const json = JSON.stringify(message.blocks);
    for (const markup of ["<!channel>", "<@U1>", "<!here>", "<https://evil"]) {
      expect(json).not.toContain(markup);
      expect(message.text).not.toContain(markup);
    }
  });

  it("escapes the user's filter in the top-level text and keeps it verbatim in the plain-text header", () => {
    const message = page(methodsOf("v3", [sample("EVIL", EVIL_NAME)]), text("<!channel>"));
    expect(header(message)).toBe("Payment methods matching “<!channel>”: 1 enabled, 0 disabled");
    expect(message.text).toBe("Payment methods matching “&lt;!channel&gt;”: 1 enabled, 0 disabled: EVIL 1 %");
    expect(buttons(message)).toEqual([refresh("<!channel>", 1)]);
  });

  it("cuts a 5000-character name", () => {
    const [method] = methodsOf("v2", [sample("LONG", "N".repeat(5000))]);
    if (!method) throw new Error("no method");
    const line = methodLine(method);
    expect(line.startsWith(`:white_check_mark: *${"N".repeat(79)}…* \`LONG\` · RUB\n`)).toBe(true);
    expect(line.length).toBeLessThan(300);
  });

  it("cuts a long name of markup without breaking an entity", () => {
    const [method] = methodsOf("v2", [sample("LONG", "&<".repeat(2500), { enabled: false })]);
    if (!method) throw new Error("no method");
    const match = /^:no_entry_sign: \*(.*)\* `LONG` · RUB · _disabled_$/.exec(methodLine(method));
    const name = match?.[1] ?? "";
    expect(name).toMatch(/^(&amp;|&lt;)+…$/);
    expect(name.length).toBeLessThanOrEqual(80);
  });

  it.each(VERSIONS)(
    "keeps 60 methods with 5000-character names and codes within every limit (%s)",
    (version) => {
      const samples = manyMethods(60).map((one, index) => ({
        ...one,
        code: `${"C".repeat(4996)}${String(index).padStart(4, "0")}`,
        name: `${index} ${"<@U1> & <!channel> ".repeat(250)}`.slice(0, 5000),
      }));
      const methods = methodsOf(version, samples);
      for (const number of [1, 2, 3]) {
        const message = page(methods, ALL, number);
        expect(codes(message)).toHaveLength(20);
        expect(JSON.stringify(message)).not.toContain("<!channel>");
        expect(message.text.length).toBeLessThanOrEqual(3000);
        expect(message.text.endsWith("…")).toBe(true);
      }
    },
  );
});

describe("paymethods replies", () => {
  it("help is private, within limits, and names the filters", () => {
    const message = paymethodsHelpMessage({ visibility: "channel" });
    expectWithinBlockKitLimits(message);
    expect(message.response_type).toBe("ephemeral");
    expect(message.text).toBe("/paymethods [filter] lists the payment methods and their commissions.");
    const [section] = sectionTexts(message);
    expect(section).toContain("• `/paymethods btc`");
    expect(section).toContain("• `/paymethods enabled` or `/paymethods disabled`");
    expect(section).toContain("• `/paymethods off BITCOIN` or `/paymethods on BITCOIN`");
    expect(section).toContain("• `/paymethods surcharge BITCOIN 2.5`");
    expect(section).toContain("`/paymethods watch` opens its form");
    expect(section).toContain("`/paymethods watch off` turns it off");
    expect(section).toContain("In this workspace method lists are posted in the channel for everyone.");
    const [privately] = sectionTexts(paymethodsHelpMessage({ visibility: "private" }));
    expect(privately).toContain(
      "method lists are shown only to whoever asks, with a *Share in channel* button",
    );
  });

  it("no match is private, within limits, and escapes the user's filter", () => {
    const message = paymethodsNoMatchMessage("<!channel> & <@U1>");
    expectWithinBlockKitLimits(message);
    expect(message.response_type).toBe("ephemeral");
    expect(message.text).toBe('No payment method matches "&lt;!channel&gt; &amp; &lt;@U1&gt;".');
    const [section] = sectionTexts(message);
    expect(
      section?.startsWith(":mag: No payment method matches `&lt;!channel&gt; &amp; &lt;@U1&gt;`. "),
    ).toBe(true);
    expect(JSON.stringify(message)).not.toContain("<!channel>");
    expect(JSON.stringify(message)).not.toContain("<@U1>");
  });

  it("no match keeps a backtick from ending the inline code", () => {
    const message = paymethodsNoMatchMessage("a`b");
    expectWithinBlockKitLimits(message);
    expect(sectionTexts(message)[0]?.startsWith(":mag: No payment method matches `aˋb`. ")).toBe(true);
  });

  it("usage is private, within limits, and escapes and cuts the input", () => {
    const reason = "filter_long";
    const short = paymethodsUsageMessage(reason, "<!channel>");
    expectWithinBlockKitLimits(short);
    expect(short.response_type).toBe("ephemeral");
    expect(short.text).toBe("A filter is at most 40 characters. Usage: /paymethods [filter]");
    expect(sectionTexts(short)).toEqual([
      ":information_source: A filter is at most 40 characters: `&lt;!channel&gt;`\nUsage: `/paymethods [all | enabled | disabled | part of a code, name or currency]`, `/paymethods off|on CODE`, `/paymethods surcharge CODE PERCENT`, `/paymethods watch [off]`",
    ]);

    const long = paymethodsUsageMessage(reason, "<".repeat(5000));
    expectWithinBlockKitLimits(long);
    expect(sectionTexts(long)[0]).toContain(`: \`${"&lt;".repeat(59)}…\`\n`);
  });
});

describe("PaymethodsPages: each page built once per list", () => {
  const options = { fetchedAt: FETCHED_AT };

  it("gives the same message as buildPaymethodsMessage, and the same object again for the same view", () => {
    const pages = new PaymethodsPages();
    const methods = methodsOf("v2", manyMethods(60));
    for (const view of [
      { filter: ALL, page: 1 },
      { filter: ALL, page: 2 },
      { filter: ENABLED, page: 1 },
      { filter: text("btc"), page: 1 },
    ]) {
      const first = pages.message(methods, view, options);
      expect(first).toEqual(buildPaymethodsMessage(methods, view, options));
      expect(pages.message(methods, view, options)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
    }
  });

  it("tells a keyword from the same word as a text filter, and remembers that nothing matched", () => {
    const pages = new PaymethodsPages();
    const methods = methodsOf("v2", [sample("ON", "Enabled coin"), sample("OFF", "Off", { enabled: false })]);
    const keyword = pages.message(methods, { filter: ENABLED, page: 1 }, options);
    const word = pages.message(methods, { filter: text("enabled"), page: 1 }, options);
    expect(keyword && header(keyword)).toBe("Payment methods (enabled only): 1 enabled, 0 disabled");
    expect(word && header(word)).toBe("Payment methods matching “enabled”: 1 enabled, 0 disabled");
    expect(pages.message(methods, { filter: text("paypal"), page: 1 }, options)).toBeUndefined();
    expect(pages.message(methods, { filter: text("paypal"), page: 1 }, options)).toBeUndefined();
  });

  it("builds again for another list object or another read time", () => {
    const pages = new PaymethodsPages();
    const before = methodsOf("v2", [sample("BTC", "Bitcoin")]);
    const after = methodsOf("v2", [sample("BTC", "Bitcoin"), sample("LTC", "Litecoin")]);
    const view = { filter: ALL, page: 1 };
    const old = pages.message(before, view, options);
    expect(old && header(old)).toBe("Payment methods: 1 enabled, 0 disabled");
    const fresh = pages.message(after, view, options);
    expect(fresh && header(fresh)).toBe("Payment methods: 2 enabled, 0 disabled");
    const later = pages.message(before, view, { fetchedAt: new Date(FETCHED_AT.getTime() + 60_000) });
    expect(later).not.toBe(old);
    expect(later && contextText(later)).not.toBe(old && contextText(old));
  });

  it("keeps at most maxViewsPerList views of one list", () => {
    const pages = new PaymethodsPages(3);
    const methods = methodsOf("v2", [sample("BTC", "Bitcoin")]);
    const first = pages.message(methods, { filter: text("bit"), page: 1 }, options);
    pages.message(methods, { filter: text("coin"), page: 1 }, options);
    pages.message(methods, { filter: text("btc"), page: 1 }, options);
    expect(first).toBeDefined();
    expect(pages.message(methods, { filter: text("bit"), page: 1 }, options)).toBe(first);
    pages.message(methods, { filter: text("bitcoin"), page: 1 }, options);
    // The fourth view cleared the list's pages: the first is built anew (equal, not the same object).
    const again = pages.message(methods, { filter: text("bit"), page: 1 }, options);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });
});

describe("buildPaymethodsMessage: the workspace's reply choice", () => {
  const methods = methodsOf("v2", manyMethods(30));
  const actionIds = (message: SlackMessage) =>
    message.blocks.flatMap((block) =>
      block.type === "actions"
        ? block.elements.map((element) => ("action_id" in element ? element.action_id : undefined))
        : [],
    );

  it("posts in the channel by default, without a Share button", () => {
    const message = page(methods, ALL);
    expect(message.response_type).toBe("in_channel");
    expect(actionIds(message)).not.toContain(PAYMETHODS_ACTIONS.share);
    expect(JSON.stringify(message)).not.toContain("Only you can see");
  });

  it("with private replies, shows the list to the asker with a Share in channel button", () => {
    const options = { fetchedAt: FETCHED_AT, visibility: "private" as const };
    const message = buildPaymethodsMessage(methods, { filter: ALL, page: 2 }, options);
    if (!message) throw new Error("expected a message");
    expectWithinBlockKitLimits(message);
    expect(message.response_type).toBe("ephemeral");
    expect(actionIds(message)).toEqual([
      PAYMETHODS_ACTIONS.previous,
      PAYMETHODS_ACTIONS.refresh,
      PAYMETHODS_ACTIONS.share,
    ]);
    expect(JSON.stringify(message)).toContain("Only you can see this list.");
    // PaymethodsPages keeps the two apart.
    const pages = new PaymethodsPages();
    expect(pages.message(methods, { filter: ALL, page: 2 }, options)?.response_type).toBe("ephemeral");
    expect(pages.message(methods, { filter: ALL, page: 2 }, { fetchedAt: FETCHED_AT })?.response_type).toBe(
      "in_channel",
    );
  });
});
