/** Each cash register's reads in the current second, in memory (one process reads on SQLite). */
export class ReadBudget {
  private readonly windows = new Map<string, { second: number; count: number }>();

  take(register: string, perSecond: number, now: number): boolean {
    const second = Math.floor(now / 1000);
    const window = this.windows.get(register);
    if (!window || window.second !== second) {
      this.windows.set(register, { second, count: 1 });
      return true;
    }
    if (window.count >= perSecond) return false;
    window.count += 1;
    return true;
  }
}
