import { describe, expect, it } from "vitest";
import { addDecimals, compareDecimals, toDecimalString } from "../../src/payments/decimal.js";
import { JsonNumber } from "../../src/payments/json.js";

/** A number as JSON.parse produces it from the service's JSON text. */
const fromJson = (text: string): unknown => (JSON.parse(`{"v":${text}}`) as { v: unknown }).v;

describe("toDecimalString: JSON numbers (v2)", () => {
  it.each([
    [1e-7, "0.0000001"],
    [4e-6, "0.000004"],
    [0.00000521, "0.00000521"],
    [1e21, "1000000000000000000000"],
    [1.5e30, `15${"0".repeat(29)}`],
    [-0, "0"],
    [0, "0"],
    [-1e-7, "-0.0000001"],
    [1500, "1500"],
    [2500.5, "2500.5"],
    [12345678.9, "12345678.9"],
    [Number.MAX_SAFE_INTEGER, "9007199254740991"],
  ])("%s -> %s", (value, text) => {
    expect(toDecimalString(value)).toBe(text);
  });

  it.each([
    ["4.0e-6", "0.000004"],
    ["4.0E-6", "0.000004"],
    ["1e-7", "0.0000001"],
    ["0.0000001", "0.0000001"],
    ["0.3", "0.3"],
    ["0.1", "0.1"],
    ["100.00", "100"],
    ["1e21", "1000000000000000000000"],
    ["-0", "0"],
    ["-0.0", "0"],
    ["1500", "1500"],
  ])("JSON text %s -> %s", (json, text) => {
    expect(toDecimalString(fromJson(json))).toBe(text);
  });

  it.each([NaN, Infinity, -Infinity])("%s -> undefined", (value) => {
    expect(toDecimalString(value)).toBeUndefined();
  });
});

describe("toDecimalString: decimal strings (v3)", () => {
  it("accepts a leading plus sign", () => {
    expect(toDecimalString("+5")).toBe("5");
    expect(toDecimalString("+0.10")).toBe("0.1");
  });

  it.each([
    ["100", "100"],
    ["100.00", "100"],
    ["0.00012345", "0.00012345"],
    ["0.00000400", "0.000004"],
    [" 5 ", "5"],
    ["\t7.50\n", "7.5"],
    ["1e5", "100000"],
    ["1E-7", "0.0000001"],
    ["-1.50", "-1.5"],
    ["-0", "0"],
    ["-0.00", "0"],
    [".5", "0.5"],
    ["5.", "5"],
    ["0.30000000000000004", "0.30000000000000004"],
    ["123456789012345678901234567890.123456789", "123456789012345678901234567890.123456789"],
    ["000123.4500", "123.45"],
  ])("%j -> %j", (value, text) => {
    expect(toDecimalString(value)).toBe(text);
  });

  it.each([
    "abc",
    "",
    "   ",
    ".",
    "-",
    "1,5",
    "1.2.3",
    "0x10",
    "1e",
    "e5",
    "1 000",
    "Infinity",
    "NaN",
    "5 RUB",
    "١٢",
  ])("%j -> undefined", (value) => {
    expect(toDecimalString(value)).toBeUndefined();
  });

  it.each([null, undefined, true, {}, [], [1], 10n])("non-number, non-string %s -> undefined", (value) => {
    expect(toDecimalString(value)).toBeUndefined();
  });
});

describe("addDecimals", () => {
  it("adds exactly, without binary-float artefacts", () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(addDecimals("0.1", "0.2")).toBe("0.3");
    expect(addDecimals("0.00000521", "0.000004")).toBe("0.00000921");
    expect(addDecimals("246913.58", "0")).toBe("246913.58");
    expect(addDecimals("1", "-1")).toBe("0");
    expect(addDecimals("0.0000001", "0.0000001", "0.0000001")).toBe("0.0000003");
    expect(addDecimals("123456789012345678901234567890.1", "0.000000001")).toBe(
      "123456789012345678901234567890.100000001",
    );
  });

  it("sums nothing to 0 and one value to itself", () => {
    expect(addDecimals()).toBe("0");
    expect(addDecimals("42.50")).toBe("42.5");
  });

  it("never prints exponents", () => {
    expect(addDecimals("0.0000001", "0")).toBe("0.0000001");
    expect(addDecimals("1e21", "1")).toBe("1000000000000000000001");
  });
});

describe("compareDecimals", () => {
  it("compares exactly", () => {
    expect(compareDecimals("0.3", "0.30000000000000004")).toBe(-1);
    expect(compareDecimals("100", "100.00")).toBe(0);
    expect(compareDecimals("-1", "-2")).toBe(1);
  });
});

describe("amounts past a sane size", () => {
  it("are refused: more than 40 significant digits or a magnitude past 10^±40", () => {
    for (const text of [
      "1e99999",
      "1e41",
      "1e-41",
      "1".repeat(41),
      `1${"0".repeat(41)}`,
      "1e-99999999999",
      "-2E+000000000000000000041",
    ])
      expect(toDecimalString(new JsonNumber(text)), text).toBeUndefined();
    expect(toDecimalString(`0.${"0".repeat(40)}1`)).toBeUndefined();
    expect(toDecimalString(1e300)).toBeUndefined();
  });

  it("are read up to the bound", () => {
    expect(toDecimalString(new JsonNumber("1e40"))).toBe(`1${"0".repeat(40)}`);
    expect(toDecimalString(new JsonNumber("1e-40"))).toBe(`0.${"0".repeat(39)}1`);
    expect(toDecimalString("1".repeat(40))).toBe("1".repeat(40));
    expect(toDecimalString(new JsonNumber("0e99999"))).toBe("0");
    expect(toDecimalString(new JsonNumber("4.0e-6"))).toBe("0.000004");
    expect(toDecimalString(`${"0".repeat(50)}12.50${"0".repeat(50)}`)).toBe("12.5");
  });
});
