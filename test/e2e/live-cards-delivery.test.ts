import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime, type SampleInvoice } from "../../sandbox/fake-payments.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { stackInItsOwnProcess } from "../support/app-process.js";
import { clockReading } from "../support/manual-clock.js";

// Told until Slack has it: a live card keeps what it is owed (its redraw, its thread note) through
// Slack's 5xx answers, rate limits and calls that never answer, and gets it once Slack takes it.

const hours = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));
const unpaid = (id: string): SampleInvoice => ({
  id,
  state: "notpayed",
  type: "purchase",
  currency: "RUB",
  amount: "1500",
  createdAt: hours(-1),
  expiredAt: hours(5),
});
const text = (message: PostedMessage | undefined) => JSON.stringify(message?.blocks ?? []);

async function postCard(stack: Stack, id: string, channelId: string): Promise<PostedMessage> {
  stack.fake.invoices.set(id, unpaid(id));
  const { reply } = await stack.ask(id, { channelId });
  const card = stack.slack.messages.get(`${channelId}:${String(reply.body.ts)}`);
  if (!card) throw new Error("no card posted");
  return card;
}

describe("live cards when Slack fails", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      env: { WATCH_INTERVAL_MS: "100", SLACK_TIMEOUT_MS: "1500" },
      storeMemoMs: 0,
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("a card whose first three updates fail (HTTP 500) ends Paid, with one thread note", async () => {
    const card = await postCard(stack, "deliver_500", "C0FIVEHUNDRED");
    // Each WebClient call retries 5xx twice itself: nine failed answers are three failed updates.
    stack.slack.troubleChannel("C0FIVEHUNDRED", { mode: "500", methods: ["chat.update"], times: 9 });
    stack.fake.pay("deliver_500");
    await expect.poll(() => text(card), { timeout: 20_000 }).toContain("Final state");
    expect(text(card)).toContain("Paid");
    await expect.poll(() => stack.slack.threadOf("C0FIVEHUNDRED", card.ts).length).toBe(1);
    expect(stack.logs.some((line) => line.includes('"outcome":"watch_update_failed"'))).toBe(true);
    // Ended: no more reads, no second note.
    await stack.pass("liveCards", 2);
    expect(stack.slack.threadOf("C0FIVEHUNDRED", card.ts)).toHaveLength(1);
  });

  it("a rate-limited thread note is not slept through, and arrives once after Retry-After", async () => {
    const card = await postCard(stack, "deliver_429", "C0RATELIMITED");
    stack.slack.troubleChannel("C0RATELIMITED", {
      mode: "ratelimited",
      methods: ["chat.postMessage"],
      times: 2,
    });
    stack.fake.pay("deliver_429");
    await expect.poll(() => text(card), { timeout: 10_000 }).toContain("Paid");
    await expect
      .poll(() => stack.slack.threadOf("C0RATELIMITED", card.ts).length, { timeout: 15_000 })
      .toBe(1);
    expect(stack.logs.some((line) => line.includes('"slackError":"ratelimited"'))).toBe(true);
    // Two refused tries and the one that went through; the next try waited for Retry-After (1 s).
    const tries = stack.slack
      .callsOf("chat.postMessage")
      .filter((call) => call.body.channel === "C0RATELIMITED" && call.body.thread_ts === card.ts);
    expect(tries).toHaveLength(3);
    expect((tries[1]?.at ?? 0) - (tries[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
  });

  it("a channel whose calls never answer does not hold up another channel's card", async () => {
    const stuck = await postCard(stack, "deliver_hang", "C0HANGING");
    const healthy = await postCard(stack, "deliver_ok", "C0HEALTHY");
    stack.slack.troubleChannel("C0HANGING", { mode: "hang", times: 1 });
    stack.fake.pay("deliver_hang");
    stack.fake.pay("deliver_ok");
    await expect.poll(() => text(healthy), { timeout: 5000 }).toContain("Paid");
    // The hung call is given up after SLACK_TIMEOUT_MS and the stuck card is owed, then delivered.
    await expect.poll(() => text(stuck), { timeout: 20_000 }).toContain("Paid");
    await expect.poll(() => stack.slack.threadOf("C0HANGING", stuck.ts).length).toBe(1);
  });

  it("drops a card Slack will not show any more (not_in_channel) with one log line, and ends the watch", async () => {
    const card = await postCard(stack, "deliver_gone", "C0LEFT");
    stack.slack.failChannel("C0LEFT", "not_in_channel");
    stack.fake.pay("deliver_gone");
    await expect
      .poll(
        () =>
          stack.logs.filter(
            (line) => line.includes('"outcome":"watch_card_gone"') && line.includes("deliver_gone"),
          ).length,
        {
          timeout: 10_000,
        },
      )
      .toBe(1);
    expect(card.updates).toBe(0);
    await expect
      .poll(() =>
        stack.logs.some((line) => line.includes('"outcome":"watch_ended"') && line.includes("deliver_gone")),
      )
      .toBe(true);
  });
});

describe("stopping while Slack hangs", () => {
  let stack: Stack | undefined;
  let child: ChildProcess | undefined;
  let next: RunningServer | undefined;
  afterAll(async () => {
    child?.kill("SIGKILL");
    await next?.stop();
    await stack?.stop();
  });

  it("SIGTERM ends the process within 10 s, and the next process delivers what the card was owed, once", async () => {
    // `npm start`'s own entry point, in a process of its own, so it can be stopped or killed outright.
    const started = await stackInItsOwnProcess({ WATCH_INTERVAL_MS: "100", SLACK_TIMEOUT_MS: "60000" });
    const running = started.stack;
    child = started.child;
    stack = running;
    const card = await postCard(running, "deliver_sigterm", "C0STOPPING");
    running.slack.troubleChannel("C0STOPPING", { mode: "hang", methods: ["chat.update"], times: 1 });
    running.fake.pay("deliver_sigterm");
    await expect
      .poll(
        () =>
          running.slack.callsOf("chat.update").filter((call) => call.body.channel === "C0STOPPING").length,
        {
          timeout: 10_000,
        },
      )
      .toBe(1);
    const exited = new Promise<number | null>((resolve) => child?.on("exit", (code) => resolve(code)));
    const signalled = performance.now();
    child?.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(10_000);
    expect(text(card)).not.toContain("Paid");

    // What it could not finish stays under its lease: the next process's clock is past it (see below).
    next = await startServer(running.env, {
      logDestination: { write: () => {} },
      storeMemoMs: 0,
      clock: clockReading(() => new Date(Date.now() + 11_000)),
    });
    await expect.poll(() => text(card), { timeout: 15_000 }).toContain("Paid");
    await expect
      .poll(() => running.slack.threadOf("C0STOPPING", card.ts).length, { timeout: 10_000 })
      .toBe(1);
  });
});

describe("kill -9 with a thread note pending", () => {
  let stack: Stack | undefined;
  let child: ChildProcess | undefined;
  let next: RunningServer | undefined;
  afterAll(async () => {
    child?.kill("SIGKILL");
    await next?.stop();
    await stack?.stop();
  });

  it("the next process sends the note the killed one had under way, once", async () => {
    const started = await stackInItsOwnProcess({ WATCH_INTERVAL_MS: "100", SLACK_TIMEOUT_MS: "60000" });
    const running = started.stack;
    child = started.child;
    stack = running;
    const card = await postCard(running, "deliver_killed", "C0KILLNOTE");
    // The thread note's chat.postMessage never answers: the process dies with it under way.
    running.slack.troubleChannel("C0KILLNOTE", { mode: "hang", methods: ["chat.postMessage"], times: 1 });
    running.fake.pay("deliver_killed");
    const noteCalls = () =>
      running.slack
        .callsOf("chat.postMessage")
        .filter((call) => call.body.channel === "C0KILLNOTE" && call.body.thread_ts === card.ts).length;
    await expect.poll(noteCalls, { timeout: 10_000 }).toBe(1);
    const exited = new Promise((resolve) => child?.once("exit", resolve));
    child?.kill("SIGKILL");
    await exited;
    expect(running.slack.threadOf("C0KILLNOTE", card.ts)).toHaveLength(0);

    // The next process's clock is past the killed one's 10 s lease: it claims the watch at once, as
    // it would once that lease ran out, without the test waiting it out.
    const pastLease = clockReading(() => new Date(Date.now() + 11_000));
    next = await startServer(running.env, {
      logDestination: { write: () => {} },
      storeMemoMs: 0,
      clock: pastLease,
    });
    await expect
      .poll(() => running.slack.threadOf("C0KILLNOTE", card.ts).length, { timeout: 15_000 })
      .toBe(1);
    await expect.poll(() => text(card), { timeout: 10_000 }).toContain("Paid");
    // Once: no second note on a later pass.
    await next.passes.liveCards();
    await next.passes.liveCards();
    expect(running.slack.threadOf("C0KILLNOTE", card.ts)).toHaveLength(1);
  });
});
