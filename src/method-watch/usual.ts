import type { MethodFigures } from "./figures.js";

// The usual figures (the 28 days before the failure window, how long a method usually goes unpaid)
// change slowly. A check takes them from a whole read of the 28 days at most once an hour per
// register, and in between reads only what came since that read's window began (the window and at
// most an hour more): a register with tens of thousands of invoices a month is not read whole every
// METHOD_CHECK_MS. Kept in the process: each replica makes its own whole read an hour.

/** How long a whole read's usual figures serve. */
export const USUAL_FRESH_MS = 3_600_000;

/** A whole read: when, with which failure window, and its figures. */
export type WholeRead = { at: number; windowMs: number; figures: ReadonlyMap<string, MethodFigures> };

export class UsualFigures {
  private readonly byRegister = new Map<string, WholeRead>();

  /** The register's whole read to build on: one of this window, under USUAL_FRESH_MS old. */
  recent(registerKey: string, now: number, windowMs: number): WholeRead | undefined {
    const whole = this.byRegister.get(registerKey);
    if (!whole || whole.windowMs !== windowMs || now < whole.at || now - whole.at >= USUAL_FRESH_MS)
      return undefined;
    return whole;
  }

  remember(registerKey: string, whole: WholeRead): void {
    for (const [key, one] of this.byRegister)
      if (whole.at - one.at >= USUAL_FRESH_MS) this.byRegister.delete(key);
    this.byRegister.set(registerKey, whole);
  }

  /** A register disconnected, or its watch's history read anew: its whole read is not built on. */
  forget(registerKey: string): void {
    this.byRegister.delete(registerKey);
  }
}

/**
 * The figures of a short read (the window counted afresh, the payments since the whole read's window
 * began) with the usual part of the whole read: the 28 days before, and the usual quiet.
 */
export function withUsual(
  short: ReadonlyMap<string, MethodFigures>,
  whole: WholeRead,
): Map<string, MethodFigures> {
  const figures = new Map<string, MethodFigures>();
  for (const code of new Set([...whole.figures.keys(), ...short.keys()])) {
    const recent = short.get(code);
    const usual = whole.figures.get(code);
    const paid = [recent?.lastPaidAt, usual?.lastPaidAt].filter((at): at is number => at !== undefined);
    figures.set(code, {
      code,
      window: recent?.window ?? { invoices: 0, failures: 0, wrongAmounts: 0 },
      before: usual?.before ?? { invoices: 0, failures: 0 },
      lastPaidAt: paid.length > 0 ? Math.max(...paid) : undefined,
      usualQuietMs: usual?.usualQuietMs,
    });
  }
  return figures;
}
