/**
 * Rate-limit counts live in windows of the clock's minutes, so a test that counts several requests
 * must not straddle a minute's end: near one, this waits for the next minute to begin.
 */
export async function awayFromMinuteEnd(marginMs = 15_000): Promise<void> {
  const msLeft = 60_000 - (Date.now() % 60_000);
  if (msLeft < marginMs) await new Promise((resolve) => setTimeout(resolve, msLeft + 100));
}
