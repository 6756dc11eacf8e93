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
