import { describe, expect, it } from "vitest";
import { toDecimalString } from "../../src/payments/decimal.js";
import { JsonNumber, parseJsonExact } from "../../src/payments/json.js";
import { invoiceV2Schema } from "../../src/payments/schemas.js";

describe("parseJsonExact", () => {
  it("keeps every digit of a number that a double cannot hold", () => {
    const parsed = parseJsonExact(
      '{"amount": 12345678.123456789, "tiny": 4.0e-6, "neg": -0.5, "big": 123456789012345678901234567890}',
    ) as Record<string, JsonNumber>;
    expect(parsed.amount).toEqual(new JsonNumber("12345678.123456789"));
    expect(toDecimalString(parsed.amount)).toBe("12345678.123456789");
    expect(toDecimalString(parsed.tiny)).toBe("0.000004");
    expect(toDecimalString(parsed.neg)).toBe("-0.5");
    expect(toDecimalString(parsed.big)).toBe("123456789012345678901234567890");
    // What JSON.parse would have given:
    expect(String(JSON.parse("12345678.123456789"))).toBe("12345678.12345679");
  });

  it("leaves strings alone, numbers and escaped quotes inside them included", () => {
    const parsed = parseJsonExact(
      String.raw`{"a": "12.5 \"quoted\" 7", "b": ["x", 1, true, null, {"c": "\\"}]}`,
    );
    expect(parsed).toEqual({ a: '12.5 "quoted" 7', b: ["x", new JsonNumber("1"), true, null, { c: "\\" }] });
  });

  it("throws SyntaxError on broken JSON, as JSON.parse does", () => {
    expect(() => parseJsonExact('{"error":false,"state":"notp')).toThrow(SyntaxError);
    expect(() => parseJsonExact("")).toThrow(SyntaxError);
    expect(() => parseJsonExact("<html>502</html>")).toThrow(SyntaxError);
    expect(() => parseJsonExact('{"a": 01}')).toThrow(SyntaxError);
  });

  it("still rejects a number where the schema wants a string", () => {
    const raw = parseJsonExact(
      '{"id":"x","url":"","state":7,"type":"purchase","method":null,"currency":"RUB","service_commission":0,"extra_commission":0,"amount":1,"pay_amount":1,"remaining_amount":1,"balance_amount":1,"created_at":"2024-01-01 10:00:00","expired_at":"2024-01-02 10:00:00"}',
    );
    const result = invoiceV2Schema.safeParse(raw);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join("."))).toEqual(["state"]);
  });
});

describe("parseJsonExact: awkward input", () => {
  it("keeps a __proto__ key as data, its numbers exact, without touching the prototype", () => {
    const parsed = parseJsonExact('{"__proto__": {"polluted": 1.10}, "n": 2}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(parsed, "__proto__")?.value).toEqual({
      polluted: new JsonNumber("1.10"),
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const direct = parseJsonExact('{"__proto__": 3.0}') as Record<string, unknown>;
    expect(Object.getOwnPropertyDescriptor(direct, "__proto__")?.value).toEqual(new JsonNumber("3.0"));
  });

  it("copies strings with escaped backslashes and quotes before digits, and a very long string", () => {
    expect(parseJsonExact(String.raw`["a\\", 1, "b\"2", "\\\"3"]`)).toEqual([
      "a\\",
      new JsonNumber("1"),
      'b"2',
      '\\"3',
    ]);
    const long = "x9".repeat(1_500_000);
    expect(parseJsonExact(`{"s":"${long}","n":-0.5e+2}`)).toEqual({ s: long, n: new JsonNumber("-0.5e+2") });
  });

  it("still throws SyntaxError for an unterminated string with digits after it", () => {
    expect(() => parseJsonExact('{"a":"12, "b": 3')).toThrow(SyntaxError);
    expect(() => parseJsonExact('{"a": 1.}')).toThrow(SyntaxError);
    expect(() => parseJsonExact('{"a": -}')).toThrow(SyntaxError);
  });
});

describe("parseJsonExact: hostile text", () => {
  it("reads an unterminated string of 4 MB in one pass (a regex rescanned it from every quote)", () => {
    expect(() => parseJsonExact('"\\'.repeat(2 * 1024 * 1024))).toThrow(SyntaxError);
    expect(() => parseJsonExact(`{"a":"${'\\"'.repeat(1_000_000)}`)).toThrow(SyntaxError);
  });

  it("still finds numbers after strings with escaped quotes and backslashes", () => {
    const parsed = parseJsonExact('{"a":"x\\\\","b":1.50,"c":"\\"2\\"","d":[3e2]}') as Record<
      string,
      unknown
    >;
    expect(parsed.a).toBe("x\\");
    expect((parsed.b as JsonNumber).text).toBe("1.50");
    expect(parsed.c).toBe('"2"');
    expect(((parsed.d as unknown[])[0] as JsonNumber).text).toBe("3e2");
  });

  it("refuses nesting too deep for the walk as invalid JSON, not a crash", () => {
    expect(() => parseJsonExact(`${"[".repeat(100_000)}${"]".repeat(100_000)}`)).toThrow(RangeError);
  });
});
