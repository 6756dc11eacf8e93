/**
 * What `promise` resolved to within `ms`, else null; it goes on either way (await it again for the
 * rest). For answers a person is waiting for: say what is known in time, never wait past the budget.
 */
export async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<null>((resolve) => {
        timer = setTimeout(resolve, Math.max(0, ms), null);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
