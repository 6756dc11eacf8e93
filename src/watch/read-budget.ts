/**
 * Each cash register's read budget, in memory (one process reads on SQLite): reads are spaced
 * 1000 / perSecond ms apart, so no second, wherever it starts, holds more than perSecond of them
 * (a count per calendar second would let 2 x perSecond through across a second's boundary).
 */
export class ReadBudget {
  private readonly nextAt = new Map<string, number>();

  take(register: string, perSecond: number, now: number): boolean {
    if (now < (this.nextAt.get(register) ?? Number.NEGATIVE_INFINITY)) return false;
    this.nextAt.set(register, now + readSpacingMs(perSecond));
    return true;
  }
}

/** How far apart one register's reads are: 500 ms at 2 a second. */
export function readSpacingMs(perSecond: number): number {
  return Math.ceil(1000 / perSecond);
}
