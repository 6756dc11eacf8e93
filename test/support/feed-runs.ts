import { afterEach, expect } from "vitest";
import { type FeedWorld, feedWorld } from "./feed-world.js";

/**
 * The feed runner's tests' harness: a feed world at a short interval per test, runners started on
 * it (replicas), all stopped and removed after each test.
 */
export const INTERVAL = 100;
let world: FeedWorld | undefined;
const stops: Array<() => Promise<void>> = [];

/** Call once in a test file: stops its runners and closes its world after each test. */
export function stopAfterEach(): void {
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await world?.close();
    world = undefined;
  });
}

export async function started(options: Parameters<typeof feedWorld>[0] = {}, now?: () => Date) {
  const made = await feedWorld({ intervalMs: INTERVAL, ...options }, now);
  world = made;
  return made;
}

/** A replica's runner on the world, started; `clock` stands for its own clock. */
export function run(made: FeedWorld, extra: Parameters<FeedWorld["runner"]>[0] = {}, clock?: () => Date) {
  const runner = made.runner(extra, clock);
  runner.start();
  stops.push(() => runner.close(200));
  return runner;
}

export async function subscribe(made: FeedWorld, team: string, channel = `C${team}`) {
  await made.feeds.subscribe(team, { channel, by: "U0ADMIN", now: Date.now() - 1000 });
  return channel;
}

/** How long after `from` the first message about `id` reached `channel`. */
export async function postedWithin(
  made: FeedWorld,
  channel: string,
  id: string,
  from: number,
  timeoutMs: number,
) {
  await expect.poll(() => made.posts(channel, id).length, { timeout: timeoutMs, interval: 20 }).toBe(1);
  return Date.now() - from;
}
