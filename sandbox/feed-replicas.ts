/**
 * The payment feed over two replicas, as an operator runs it: two Kassa processes (`npm start`'s
 * server, sandbox/replica-entry.ts, with this run's own namespace for live cards and feed turns)
 * share one Redis or PostgreSQL; the sandbox service answers every call after `latencyMs`; each
 * workspace has its own cash register and one feed channel, and its invoices are paid over
 * `spreadMs`. Optionally one replica is paused (SIGSTOP, then SIGCONT) a third of the way in and
 * the other killed with kill -9 (and started again) two thirds of the way in. Counted from Slack's
 * side: payments posted, posted more than once, never posted, and the time from payment to message.
 * Used by test/e2e/feed-replicas.test.ts (short) and `npm run bench -- --replicas` (long).
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openInvoice } from "./fake-payments.js";
import { freePort } from "./ports.js";
import { REPLICA_ENTRY, startAppProcess } from "./replica-process.js";
import { Stack } from "./stack.js";

export type FeedReplicasOptions = {
  storeUrl: string;
  workspaces: number;
  paymentsEach: number;
  spreadMs: number;
  latencyMs: number;
  intervalMs: number;
  /** The feed's lease (default the app's 10 s). */
  leaseMs?: number;
  /** Pause one replica this long a third of the way in (0: not). */
  pauseMs?: number;
  /** Kill the other with kill -9 two thirds of the way in, then start it again. */
  kill?: boolean;
  progress?: (text: string) => void;
};

export type FeedReplicasResult = {
  payments: number;
  posted: number;
  /** Messages beyond the first for a payment. */
  repeated: number;
  lost: number;
  /** From each payment to its first message, ms, ascending. */
  delays: number[];
  events: string[];
};

const SETTLE_EXTRA_MS = 15_000;

/** `work(0..count-1)`, a few at a time (each starts a CLI process). */
async function inParallel(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(4, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
}

export async function runFeedReplicas(options: FeedReplicasOptions): Promise<FeedReplicasResult> {
  const run = randomBytes(4).toString("hex");
  const redis = /^rediss?:/.test(options.storeUrl);
  const namespace = redis ? `kassa-replicas-${run}` : `kr_${run}`;
  const progress = options.progress ?? (() => {});
  const team = (w: number) => `T0R${run.toUpperCase()}${String(w).padStart(3, "0")}`;
  const login = (w: number) => `replicas_${run}_${w}`;
  const accounts = Object.fromEntries(
    Array.from({ length: options.workspaces }, (_, w) => [login(w), `s-${w}`]),
  );
  const replicas: ChildProcess[] = [];
  // A run cut short (a test's time-out ends its worker) leaves no replica behind.
  const killAll = () => {
    for (const child of replicas) child.kill("SIGKILL");
  };
  process.once("exit", killAll);
  let appEnv: Record<string, string | undefined> = {};
  const startReplica = async () => {
    const port = await freePort();
    const child = await startAppProcess({ ...appEnv, PORT: String(port) }, REPLICA_ENTRY);
    replicas.push(child);
    return { child, port };
  };
  const stack = await Stack.start({
    connect: false,
    storeMemoMs: 0,
    fake: { accounts, latencyMs: options.latencyMs },
    env: {
      STORE_URL: options.storeUrl,
      FEED_INTERVAL_MS: String(options.intervalMs),
      TEST_WATCH_NAMESPACE: namespace,
      ...(options.leaseMs ? { TEST_FEED_LEASE_MS: String(options.leaseMs) } : {}),
      // The replicas say "Kassa is listening" at info: startAppProcess waits for it.
      LOG_LEVEL: "info",
    },
    startApp: async (env) => {
      appEnv = env;
      const { child, port } = await startReplica();
      return { port, stop: async () => void child.kill("SIGKILL") };
    },
  });
  const events: string[] = [];
  try {
    await startReplica();
    progress(
      `two replicas on ${redis ? "Redis" : "PostgreSQL"}; connecting ${options.workspaces} workspaces`,
    );
    stack.slack.users.U0ADMIN = { is_admin: true };
    await inParallel(options.workspaces, async (w) => {
      const set = await stack.cli(
        ["credentials", "set", "--team", team(w), "--login", login(w), "--secret", "-"],
        `s-${w}`,
      );
      if (set.code !== 0) throw new Error(`could not connect ${team(w)}: ${set.stderr}`);
      const ack = await stack.command("subscribe", {
        teamId: team(w),
        channelId: `C0R${w}`,
        userId: "U0ADMIN",
      });
      await stack.slack.waitForReply(ack.responseId, { count: 2, timeoutMs: 15_000 });
    });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const invoices: Array<{ id: string; channel: string }> = [];
    for (let w = 0; w < options.workspaces; w += 1) {
      for (let p = 0; p < options.paymentsEach; p += 1) {
        const id = `8${String(w).padStart(3, "0")}${String(p).padStart(4, "0")}_r${run}`;
        stack.fake.invoices.set(id, openInvoice(id, { amount: "1500", login: login(w) }));
        invoices.push({ id, channel: `C0R${w}` });
      }
    }
    // Both replicas' turns have seen them unpaid before the first payment.
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs * 2 + 1000));
    progress(`paying ${invoices.length} invoices over ${options.spreadMs / 1000} s`);
    const order = [...invoices].sort(() => Math.random() - 0.5);
    const paidAt = new Map<string, number>();
    const started = Date.now();
    const disruptions: Array<Promise<void>> = [];
    const at = (fraction: number, what: () => Promise<void>) =>
      disruptions.push(new Promise((resolve) => setTimeout(resolve, options.spreadMs * fraction)).then(what));
    if (options.pauseMs) {
      at(1 / 3, async () => {
        const paused = replicas[0];
        paused?.kill("SIGSTOP");
        events.push(`replica 1 paused (SIGSTOP) ${options.pauseMs} ms at ${Date.now() - started} ms`);
        await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
        paused?.kill("SIGCONT");
      });
    }
    if (options.kill) {
      at(2 / 3, async () => {
        const killed = replicas[1];
        killed?.kill("SIGKILL");
        events.push(`replica 2 killed (kill -9) at ${Date.now() - started} ms, started again`);
        await startReplica();
      });
    }
    const firstSeen = new Map<string, number>();
    const count = () => {
      const posts = new Map<string, number>();
      for (const message of stack.slack.messages.values()) {
        const id = /8\d{7}_r[0-9a-f]{8}/.exec(message.text)?.[0];
        if (!id || !message.channel.startsWith("C0R")) continue;
        posts.set(id, (posts.get(id) ?? 0) + 1);
        if (!firstSeen.has(id)) firstSeen.set(id, Date.now());
      }
      return posts;
    };
    // Watching Slack while paying: each payment's first message is timed as it comes.
    let paying = true;
    const observer = (async () => {
      while (paying) {
        count();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();
    for (let i = 0; i < order.length; i += 1) {
      const due = started + (i * options.spreadMs) / order.length;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const invoice = order[i];
      if (!invoice) continue;
      paidAt.set(invoice.id, Date.now());
      stack.fake.pay(invoice.id);
    }
    await Promise.all(disruptions);
    paying = false;
    await observer;
    const settleBy = Date.now() + options.intervalMs + (options.leaseMs ?? 10_000) + SETTLE_EXTRA_MS;
    let posts = count();
    while (posts.size < invoices.length && Date.now() < settleBy) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      posts = count();
    }
    // Late repeats, if any, have time to show.
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs + 1000));
    posts = count();
    const delays = [...firstSeen].map(([id, at]) => at - (paidAt.get(id) ?? at)).sort((a, b) => a - b);
    return {
      payments: invoices.length,
      posted: posts.size,
      repeated: [...posts.values()].reduce((sum, n) => sum + n - 1, 0),
      lost: invoices.length - posts.size,
      delays,
      events,
    };
  } finally {
    killAll();
    process.off("exit", killAll);
    await forget(
      stack,
      options.storeUrl,
      namespace,
      Array.from({ length: options.workspaces }, (_, w) => team(w)),
    );
    await stack.stop();
  }
}

/** This run's workspaces, live cards and feed turns leave the shared store. */
async function forget(stack: Stack, storeUrl: string, namespace: string, teams: string[]): Promise<void> {
  const { openStore } = await import("../src/store/keyv.js");
  const store = await openStore(storeUrl);
  try {
    await inParallel(teams.length, async (i) => {
      await stack.cli(["credentials", "remove", "--team", teams[i] ?? ""]);
      await store.namespace("feedsubs").delete(teams[i] ?? "");
    });
    if (store.native?.kind === "redis") {
      await store.native.client.eval(
        "for _, key in ipairs(redis.call('KEYS', ARGV[1])) do redis.call('DEL', key) end return 1",
        { arguments: [`${namespace}:*`] },
      );
    } else if (store.native?.kind === "postgres") {
      const tables = [
        "watch_cards",
        "watches",
        "watch_reads",
        "watch_next_read",
        "feed_turns",
        "feed_states",
      ];
      await store.native.pool.query(
        `DROP TABLE IF EXISTS ${tables.map((t) => `${namespace}_${t}`).join(", ")}`,
      );
    }
  } finally {
    await store.close();
  }
}
