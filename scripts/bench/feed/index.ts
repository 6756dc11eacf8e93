/**
 * `npm run bench -- --feed`: payment feeds under load. The real app runs in this process (sandbox
 * Stack, SQLite) with W workspaces, each with its own cash register and one feed channel; then the
 * sandbox service pays their invoices at R per second, spread over the workspaces, for S seconds.
 * Reported: payments posted in their feed (and any posted twice), time from payment to feed message
 * (p50, p99, max) against FEED_INTERVAL_MS + 2 s, the most history reads of one register in one
 * second against PAYMENTS_RATE_PER_SECOND, and peak RSS. Reported, not asserted.
 *
 * Flags (defaults): --workspaces 500 --rate 50 (payments per second) --seconds 30
 * --interval-ms 30000 (FEED_INTERVAL_MS) --settle-seconds 45 --backlog 0 (one more workspace whose
 * history lists this many payments at once when the others' start: its feed drains them meanwhile,
 * and the figures above are the other workspaces').
 */
import { parseArgs } from "node:util";
import { openInvoice } from "../../../sandbox/fake-payments.js";
import { Stack } from "../../../sandbox/stack.js";
import { percentile } from "../shared/stats.js";

const SETUP_CONCURRENCY = 20;

async function inParallel(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: SETUP_CONCURRENCY }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

export async function runFeedBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      workspaces: { type: "string", default: "500" },
      rate: { type: "string", default: "50" },
      seconds: { type: "string", default: "30" },
      "interval-ms": { type: "string", default: "30000" },
      "settle-seconds": { type: "string", default: "45" },
      backlog: { type: "string", default: "0" },
    },
  });
  const workspaces = Number(values.workspaces);
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  const intervalMs = Number(values["interval-ms"]);
  const settleMs = Number(values["settle-seconds"]) * 1000;
  const backlog = Number(values.backlog);
  const total = Math.round(rate * seconds);
  const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);

  const team = (w: number) => `T0FEED${String(w).padStart(4, "0")}`;
  const login = (w: number) => `register_${w}`;
  // The busy workspace, when there is a backlog, is the last one.
  const all = workspaces + (backlog > 0 ? 1 : 0);
  const accounts = Object.fromEntries(Array.from({ length: all }, (_, w) => [login(w), `secret-${w}`]));
  const stack = await Stack.start({
    connect: false,
    fake: { accounts, invoices: [] },
    env: { FEED_INTERVAL_MS: String(intervalMs), LOG_LEVEL: "warn" },
  });
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);
  try {
    stack.slack.users.U0ADMIN = { is_admin: true };
    progress(`connecting ${all} workspaces and subscribing a channel in each`);
    await inParallel(all, async (w) => {
      const set = await stack.cli(
        ["credentials", "set", "--team", team(w), "--login", login(w), "--secret", "-"],
        `secret-${w}`,
      );
      if (set.code !== 0) throw new Error(`could not connect ${team(w)}: ${set.stderr}`);
    });
    await inParallel(all, async (w) => {
      const ack = await stack.command("subscribe", {
        teamId: team(w),
        channelId: `C0FEED${w}`,
        userId: "U0ADMIN",
      });
      await stack.slack.waitForReply(ack.responseId, { count: 2 });
    });

    // Every invoice exists (unpaid) from the start, made after the subscriptions.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const invoices: Array<{ id: string; w: number }> = [];
    const now = new Date();
    for (let i = 0; i < total; i += 1) {
      const w = i % workspaces;
      const id = `9${String(i).padStart(8, "0")}_feedbench`;
      const invoice = openInvoice(
        id,
        { amount: "1500", description: `Feed bench order ${i}`, login: login(w) },
        now,
      );
      stack.fake.invoices.set(id, invoice);
      invoices.push({ id, w });
    }
    progress(
      `${workspaces} feeds; waiting one interval, then paying ${rate} invoices a second for ${seconds} s`,
    );
    await new Promise((resolve) => setTimeout(resolve, intervalMs + 2000));
    for (let i = 0; i < backlog; i += 1) {
      const id = `7${String(i).padStart(8, "0")}_backlog`;
      stack.fake.invoices.set(
        id,
        openInvoice(id, { amount: "1500", state: "payed", login: login(workspaces) }),
      );
    }
    const backlogPosted = () =>
      [...stack.slack.messages.values()].filter((m) => m.channel === `C0FEED${workspaces}`).length;

    const paidAt = new Map<string, number>();
    const postedAfter = new Map<string, number>();
    const postsOf = new Map<string, number>();
    let paying = true;
    const seen = new Set<string>();
    const observer = (async () => {
      let settleBy = Number.POSITIVE_INFINITY;
      while (postedAfter.size < total && performance.now() < settleBy) {
        if (!paying && settleBy === Number.POSITIVE_INFINITY) settleBy = performance.now() + settleMs;
        const at = performance.now();
        for (const [key, message] of stack.slack.messages) {
          if (seen.has(key) || !message.channel.startsWith("C0FEED")) continue;
          seen.add(key);
          const id = /9\d{8}_feedbench/.exec(message.text)?.[0];
          if (!id) continue;
          postsOf.set(id, (postsOf.get(id) ?? 0) + 1);
          if (!postedAfter.has(id)) postedAfter.set(id, at - (paidAt.get(id) ?? at));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const historyBefore = stack.fake.requests.length;
    const started = performance.now();
    for (let i = 0; i < total; i += 1) {
      const due = started + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const id = invoices[i]?.id ?? "";
      paidAt.set(id, performance.now());
      stack.fake.pay(id);
    }
    paying = false;
    await observer;

    // History reads per register and second, from the service's side.
    const perSecond = new Map<string, number>();
    for (const request of stack.fake.requests.slice(historyBefore)) {
      if (!request.path.endsWith("/history/payments/")) continue;
      const key = `${String(request.body?.auth_login)}:${Math.floor(request.at / 1000)}`;
      perSecond.set(key, (perSecond.get(key) ?? 0) + 1);
    }
    const delays = [...postedAfter.values()].sort((a, b) => a - b);
    const twice = [...postsOf.values()].filter((n) => n > 1).length;
    const ms = (value: number) => `${(value / 1000).toFixed(1)} s`;
    const p99 = percentile(delays, 99);
    const lines = [
      `Feed: ${workspaces} workspaces, each its own cash register and one feed channel; ${rate} payments/s for ${seconds} s (${total}); FEED_INTERVAL_MS=${intervalMs}; node ${process.version}.`,
      `  payments posted in their feed          ${postedAfter.size} of ${total}; posted twice: ${twice}`,
      `  payment to feed message p50 / p99 / max   ${ms(percentile(delays, 50))} / ${ms(p99)} / ${ms(delays.at(-1) ?? Number.NaN)}  (target p99 < ${ms(intervalMs + 2000)}: ${p99 < intervalMs + 2000 ? "PASS" : "FAIL"})`,
      `  most history reads of one register in one second   ${Math.max(0, ...perSecond.values())} (budget PAYMENTS_RATE_PER_SECOND 5)`,
      `  peak RSS (bench and app, one process)  ${(peakRss / 2 ** 20).toFixed(1)} MiB`,
      ...(backlog > 0
        ? [
            `  the busy workspace's backlog posted meanwhile   ${backlogPosted()} of ${backlog} (drains at its register's budget)`,
          ]
        : []),
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    return postedAfter.size === total && twice === 0 ? 0 : 1;
  } finally {
    clearInterval(sampler);
    await stack.stop();
  }
}
