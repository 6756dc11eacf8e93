import { describe, expect, it } from "vitest";
import { FILTER_MAX_LENGTH, parsePaymethodsText } from "../../src/paymethods/text.js";

describe("parsePaymethodsText", () => {
  it.each(["", "   ", "\n\t", "all", "ALL", " All ", "aLl\n"])("%j -> all methods", (text) => {
    expect(parsePaymethodsText(text)).toEqual({ kind: "list", filter: { kind: "all" } });
  });

  it.each(["enabled", "ENABLED", " Enabled ", "eNaBlEd\n"])("%j -> enabled methods", (text) => {
    expect(parsePaymethodsText(text)).toEqual({ kind: "list", filter: { kind: "enabled" } });
  });

  it.each(["disabled", "DISABLED", "  Disabled\t"])("%j -> disabled methods", (text) => {
    expect(parsePaymethodsText(text)).toEqual({ kind: "list", filter: { kind: "disabled" } });
  });

  it.each(["help", "HELP", " Help ", "?", "-h", "--help"])("%j -> help", (text) => {
    expect(parsePaymethodsText(text)).toEqual({ kind: "help" });
  });

  it.each([
    ["btc", "btc"],
    ["  btc  ", "btc"],
    ["BTC", "BTC"],
    ["card", "card"],
    ["helpme", "helpme"],
    ["enabled methods", "enabled methods"],
    ["all btc", "all btc"],
    ["<!channel>", "<!channel>"],
  ])("%j -> text filter %j", (text, filter) => {
    expect(parsePaymethodsText(text)).toEqual({ kind: "list", filter: { kind: "text", text: filter } });
  });

  it("collapses inner whitespace of a text filter to single spaces", () => {
    expect(parsePaymethodsText("  card \t  rub\n\np2p ")).toEqual({
      kind: "list",
      filter: { kind: "text", text: "card rub p2p" },
    });
  });

  it("accepts a 40-character filter", () => {
    expect(FILTER_MAX_LENGTH).toBe(40);
    const forty = "x".repeat(40);
    expect(parsePaymethodsText(forty)).toEqual({ kind: "list", filter: { kind: "text", text: forty } });
    expect(parsePaymethodsText(`   ${forty}   `)).toEqual({
      kind: "list",
      filter: { kind: "text", text: forty },
    });
  });

  it("refuses a 41-character filter", () => {
    const fortyOne = "x".repeat(41);
    expect(parsePaymethodsText(fortyOne)).toEqual({
      kind: "invalid",
      reason: "filter_long",
      input: fortyOne,
    });
  });

  it("measures the length after collapsing whitespace", () => {
    // 20 + 1 + 19 = 40 characters once the run of spaces is one space.
    const forty = `${"a".repeat(20)}      ${"b".repeat(19)}`;
    expect(parsePaymethodsText(forty)).toEqual({
      kind: "list",
      filter: { kind: "text", text: `${"a".repeat(20)} ${"b".repeat(19)}` },
    });
    const fortyOne = `${"a".repeat(20)} \t ${"b".repeat(20)}`;
    expect(parsePaymethodsText(fortyOne)).toEqual({
      kind: "invalid",
      reason: "filter_long",
      input: `${"a".repeat(20)} ${"b".repeat(20)}`,
    });
  });
});

describe("parsePaymethodsText: switches and the watch", () => {
  it.each([
    ["off bitcoin", { kind: "switch", code: "BITCOIN", on: false }],
    [" OFF  LTC ", { kind: "switch", code: "LTC", on: false }],
    ["on card_rub", { kind: "switch", code: "CARD_RUB", on: true }],
    ["surcharge BITCOIN 10", { kind: "surcharge", code: "BITCOIN", percent: "10" }],
    ["surcharge btc 2,5", { kind: "surcharge", code: "BTC", percent: "2.5" }],
    ["surcharge btc 05.50%", { kind: "surcharge", code: "BTC", percent: "5.50" }],
    ["surcharge btc 0", { kind: "surcharge", code: "BTC", percent: "0" }],
    ["surcharge btc 100", { kind: "surcharge", code: "BTC", percent: "100" }],
    ["watch", { kind: "watch" }],
    ["WATCH off", { kind: "watch_off" }],
  ])("%j -> %j", (text, expected) => {
    expect(parsePaymethodsText(text)).toEqual(expected);
  });

  it.each([
    ["off", "switch_arg"],
    ["on", "switch_arg"],
    ["off BITCOIN LTC", "switch_arg"],
    ["off <!channel>", "switch_arg"],
    ["surcharge BITCOIN", "surcharge_arg"],
    ["surcharge BITCOIN 100.5", "surcharge_arg"],
    ["surcharge BITCOIN -1", "surcharge_arg"],
    ["surcharge BITCOIN 1e3", "surcharge_arg"],
    ["surcharge BITCOIN 2.555", "surcharge_arg"],
    ["watch on now", "watch_arg"],
  ])("%j is refused (%s)", (text, reason) => {
    expect(parsePaymethodsText(text)).toMatchObject({ kind: "invalid", reason });
  });
});
