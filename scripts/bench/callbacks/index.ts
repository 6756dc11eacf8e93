/**
 * `npm run bench -- --callbacks`: the payment service's notifications under load. The real app runs
 * in this process (sandbox Stack, SQLite) with PUBLIC_URL and live cards polled only every 10 minutes;
 * N invoices get a live card each (one `/invoice <id>` per invoice, over 50 channels); then the sandbox
 * service pays them at R per second, posting each signed callback as it does. Reported: callbacks
 * answered, cards turned Paid, time from payment to card update (p50, p99, max), thread notes per
 * card (duplicates), payment-service reads, peak RSS. Reported, not asserted.
 *
 * Flags (defaults): --rate 100 (payments per second) --seconds 30 --read-rps 100 (WATCH_MAX_RPS, the
 * register's read budget for live cards; the app's default is 2) --settle-seconds 60. Posting the cards
 * is setup: PAYMENTS_RATE_PER_SECOND is 0 (no limit) so it is quick.
 */
import { parseArgs } from "node:util";
import {
  SANDBOX_LOGIN,
  SANDBOX_SALT,
  SANDBOX_SECRET,
  type SampleInvoice,
} from "../../../sandbox/fake-payments.js";
import { freePort } from "../../../sandbox/ports.js";
import { SANDBOX_TEAM } from "../../../sandbox/slack.js";
import { Stack } from "../../../sandbox/stack.js";
import { percentile } from "../shared/stats.js";

const CHANNELS = 50;
const POST_CONCURRENCY = 20;

export async function runCallbacksBench(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: {
      rate: { type: "string", default: "100" },
      seconds: { type: "string", default: "30" },
      "read-rps": { type: "string", default: "100" },
      "settle-seconds": { type: "string", default: "60" },
    },
  });
  const rate = Number(values.rate);
  const seconds = Number(values.seconds);
  const readRps = Number(values["read-rps"]);
  const settleMs = Number(values["settle-seconds"]) * 1000;
  const total = Math.round(rate * seconds);
  const progress = (text: string) => process.stderr.write(`bench: ${text}\n`);

  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}/`;
  const now = new Date();
  const moscow = (date: Date) =>
    new Date(date.getTime() + 3 * 3_600_000).toISOString().replace("T", " ").slice(0, 19);
  const invoices: SampleInvoice[] = Array.from({ length: total }, (_, i) => ({
    id: `800${String(i).padStart(6, "0")}_bench`,
    state: "notpayed",
    currency: "RUB",
    amount: "1500",
    description: `Bench order ${i}`,
    createdAt: moscow(now),
    expiredAt: moscow(new Date(now.getTime() + 3_600_000)),
  }));
  const stack = await Stack.start({
    fake: { invoices },
    env: {
      PORT: String(port),
      PUBLIC_URL: publicUrl,
      WATCH_INTERVAL_MS: "600000",
      WATCH_MAX_PER_WORKSPACE: String(total + 10),
      WATCH_MAX_RPS: String(readRps),
      // Posting thousands of cards is setup, not the measure: the command path is not throttled.
      PAYMENTS_RATE_PER_SECOND: "0",
      LOG_LEVEL: "warn",
    },
  });
  let peakRss = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 100);
  try {
    stack.slack.users.U0ADMIN = { is_admin: true };
    await stack.cli(
      [
        "credentials",
        "set",
        "--team",
        SANDBOX_TEAM.id,
        "--login",
        SANDBOX_LOGIN,
        "--secret",
        SANDBOX_SECRET,
        "--salt",
        "-",
      ],
      SANDBOX_SALT,
    );
    const status = JSON.stringify((await stack.ask("status", { userId: "U0ADMIN" })).reply.body);
    const address = /http:\/\/127\.0\.0\.1:\d+\/crystalpay\/callback\/[A-Za-z0-9_-]{32}/.exec(status)?.[0];
    if (!address) throw new Error("the workspace has no callback address");
    for (const invoice of invoices) invoice.callbackUrl = address;

    progress(`posting ${total} live cards over ${CHANNELS} channels`);
    let next = 0;
    await Promise.all(
      Array.from({ length: POST_CONCURRENCY }, async () => {
        while (next < total) {
          const i = next++;
          // Fifty people ask, as a team does: one person may start at most a quarter of the
          // workspace's live cards (their fair share), so one asker alone would leave most unwatched.
          await stack.command(invoices[i]?.id ?? "", {
            channelId: `C0BENCH${i % CHANNELS}`,
            userId: `U0BENCH${String(i % 50).padStart(3, "0")}`,
          });
        }
      }),
    );
    const cardOf = new Map<string, { channel: string; ts: string }>();
    const deadline = Date.now() + 120_000;
    while (cardOf.size < total && Date.now() < deadline) {
      for (const message of stack.slack.messages.values()) {
        if (message.threadTs || !message.channel.startsWith("C0BENCH")) continue;
        const id = /8\d{8}_bench/.exec(message.text + JSON.stringify(message.blocks))?.[0];
        if (id && !cardOf.has(id)) cardOf.set(id, { channel: message.channel, ts: message.ts });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    progress(`${cardOf.size} cards posted; paying ${rate} invoices a second for ${seconds} s`);

    const readsBefore = stack.fake.requests.filter((r) => r.path.endsWith("/invoice/info/")).length;
    const paidAt = new Map<string, number>();
    const updatedAfter = new Map<string, number>();
    const byKey = new Map([...stack.slack.messages.values()].map((m) => [`${m.channel}:${m.ts}`, m]));
    // Watches the cards while the payments go on: each card's first update showing Paid.
    let paying = true;
    const observer = (async () => {
      let settleBy = Number.POSITIVE_INFINITY;
      while (updatedAfter.size < cardOf.size && performance.now() < settleBy) {
        if (!paying && settleBy === Number.POSITIVE_INFINITY) settleBy = performance.now() + settleMs;
        const at = performance.now();
        for (const id of paidAt.keys()) {
          if (updatedAfter.has(id)) continue;
          const card = cardOf.get(id);
          const message = card && byKey.get(`${card.channel}:${card.ts}`);
          if (message && message.updates > 0 && JSON.stringify(message.blocks).includes("Paid"))
            updatedAfter.set(id, at - (paidAt.get(id) ?? at));
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
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
    const notes = [...cardOf.values()].map((card) => stack.slack.threadOf(card.channel, card.ts).length);
    const delays = [...updatedAfter.values()].sort((a, b) => a - b);
    const answered = stack.fake.callbacks.filter((sent) => sent.status === 200).length;
    const reads = stack.fake.requests.filter((r) => r.path.endsWith("/invoice/info/")).length - readsBefore;
    const ms = (value: number) => `${Math.round(value)} ms`;
    const lines = [
      `Callbacks: ${rate}/s for ${seconds} s, ${cardOf.size} live cards over ${CHANNELS} channels of one workspace, one cash register (WATCH_MAX_RPS=${readRps}), polling every 10 minutes; node ${process.version}.`,
      `  callbacks posted / answered 200      ${stack.fake.callbacks.length} / ${answered}`,
      `  cards turned Paid                     ${updatedAfter.size} of ${cardOf.size}`,
      `  payment to card update p50 / p99 / max   ${ms(percentile(delays, 50))} / ${ms(percentile(delays, 99))} / ${ms(delays.at(-1) ?? Number.NaN)}`,
      `  thread notes per card: none ${notes.filter((n) => n === 0).length}, one ${notes.filter((n) => n === 1).length}, more (duplicates) ${notes.filter((n) => n > 1).length}`,
      `  invoice/info reads after the payments ${reads}`,
      `  peak RSS (bench and app, one process)  ${(peakRss / 2 ** 20).toFixed(1)} MiB`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
    return updatedAfter.size === cardOf.size && notes.every((n) => n <= 1) ? 0 : 1;
  } finally {
    clearInterval(sampler);
    await stack.stop();
  }
}
