import { describe, expect, it } from "vitest";
import {
  EXTRA_MAX_LENGTH,
  markerOf,
  newRef,
  ownExtra,
  REF_PATTERN,
  readExtra,
  withMarker,
} from "../../src/payments/marker.js";

const REF = "abcdefgh23";

describe("Kassa's marker in extra", () => {
  it("makes refs of 10 base32 characters, a fresh one each time", () => {
    const refs = new Set(Array.from({ length: 200 }, () => newRef()));
    expect(refs.size).toBe(200);
    for (const ref of refs) expect(ref).toMatch(REF_PATTERN);
    expect(newRef(() => new Uint8Array([0, 1, 25, 26, 31, 32, 255, 64, 100, 7]))).toBe("abz27a7aeh");
  });

  it("writes the marker after the user's own text, or alone", () => {
    expect(withMarker("Order 10232", REF)).toEqual({ extra: `Order 10232 kassa:${REF}`, marked: true });
    expect(withMarker(undefined, REF)).toEqual({ extra: `kassa:${REF}`, marked: true });
    expect(withMarker("", REF)).toEqual({ extra: `kassa:${REF}`, marked: true });
    expect(markerOf(REF).length + 1).toBeLessThanOrEqual(17);
  });

  it("never cuts the user's text: no room, no marker", () => {
    const fits = "x".repeat(EXTRA_MAX_LENGTH - 17);
    expect(withMarker(fits, REF)).toEqual({ extra: `${fits} kassa:${REF}`, marked: true });
    expect(withMarker(fits, REF).extra).toHaveLength(EXTRA_MAX_LENGTH);
    const long = "y".repeat(EXTRA_MAX_LENGTH - 16);
    expect(withMarker(long, REF)).toEqual({ extra: long, marked: false });
    const longer = "z".repeat(EXTRA_MAX_LENGTH + 40);
    expect(withMarker(longer, REF)).toEqual({ extra: longer, marked: false });
  });

  it("refuses a ref it did not make", () => {
    expect(() => withMarker("x", "ABCDEFGH23")).toThrow();
    expect(() => withMarker("x", "short")).toThrow();
  });

  it("reads back the user's text and the ref, whatever the user wrote", () => {
    expect(readExtra(`Order 10232 kassa:${REF}`)).toEqual({ own: "Order 10232", ref: REF });
    expect(readExtra(`kassa:${REF}`)).toEqual({ own: null, ref: REF });
    expect(readExtra("Order 10232")).toEqual({ own: "Order 10232", ref: null });
    expect(readExtra("")).toEqual({ own: null, ref: null });
    expect(readExtra(null)).toEqual({ own: null, ref: null });
    // Not a marker: glued to a word, a ref of another length or alphabet, or not at the end.
    expect(readExtra(`orderkassa:${REF}`)).toEqual({ own: `orderkassa:${REF}`, ref: null });
    expect(readExtra("x kassa:abcdefgh2")).toEqual({ own: "x kassa:abcdefgh2", ref: null });
    expect(readExtra("x kassa:ABCDEFGH23")).toEqual({ own: "x kassa:ABCDEFGH23", ref: null });
    expect(readExtra(`kassa:${REF} then more`)).toEqual({ own: `kassa:${REF} then more`, ref: null });
    expect(readExtra(`line one\nkassa:${REF}`)).toEqual({ own: "line one", ref: REF });
  });

  it("round-trips whatever the user typed", () => {
    for (const own of ["Order 1", "заказ №5 <b>&amp;", "a  b ", "kassa:notaref!", `kassa:${REF}x`]) {
      const { extra } = withMarker(own, REF);
      expect(readExtra(extra)).toEqual({ own: own.trimEnd(), ref: REF });
    }
  });

  it("shows people only their own text", () => {
    expect(ownExtra(`Order 10232 kassa:${REF}`)).toBe("Order 10232");
    expect(ownExtra(`kassa:${REF}`)).toBeNull();
    expect(ownExtra("Order 10232")).toBe("Order 10232");
  });
});
