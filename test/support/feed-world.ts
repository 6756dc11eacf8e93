import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { webApi } from "@slack/bolt";
import { type SlackStandIn, startSlackStandIn } from "../../sandbox/slack.js";
import type { FeedReader, FeedRunnerOptions } from "../../src/feed/deps.js";
import type { FeedLedger } from "../../src/feed/ledger.js";
import { openFeedLedger } from "../../src/feed/ledger.js";
import { FeedRunner } from "../../src/feed/runner.js";
import { FeedStore } from "../../src/feed/store.js";
import type { HistoryEntry } from "../../src/payments/history.js";
import type { Invoice } from "../../src/payments/model.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { createLogger } from "../../src/util/logger.js";
import { clockReading } from "./manual-clock.js";
import { unpaidInvoice } from "./watch-fixtures.js";

/** A read the test answers when it likes (or never): `release()` lets it through. */
export type Held = { release(): void };

/**
 * One cash register's history as the feed reads it, newest first, changed by the test; a read can
 * be made to fail (`fault`), or be held until the test releases it.
 */
export class RegisterHistory {
  entries: HistoryEntry[] = [];
  fault: Error | null = null;
  hold = false;
  /** Each read takes this long (a slow register). */
  delayMs = 0;
  /** Every other read fails (a service that flaps), whatever the clock. */
  flapping = false;
  readonly held: Held[] = [];
  reads = 0;
  /** Each read's page and priority, in order. */
  readonly log: Array<{ page: number; priority: string }> = [];
  private count = 0;

  /** A new invoice, created now or `ageS` seconds ago (listed newest first). */
  add(state = "notpayed", id?: string, ageS = 0): string {
    this.count += 1;
    const made = id ?? `inv${this.count}`;
    const at = Math.floor(Date.now() / 1000) - ageS;
    this.entries.unshift({
      id: made,
      state,
      method: null,
      createdAt: { text: "", zone: "Europe/Moscow", epochSeconds: at },
      expiresAt: { text: "", zone: "Europe/Moscow", epochSeconds: at + 3600 },
      amount: { value: "1500", currency: "RUB" },
      rub: "1500",
    });
    return made;
  }

  set(id: string, state: string): void {
    const entry = this.entries.find((candidate) => candidate.id === id);
    if (entry) entry.state = state;
  }

  async page(page: number, items: number, priority = "command") {
    this.reads += 1;
    this.log.push({ page, priority });
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.hold) await new Promise<void>((release) => this.held.push({ release }));
    if (this.fault) throw this.fault;
    if (this.flapping && this.reads % 2 === 0) throw new Error("HTTP 502 (flapping)");
    const entries = this.entries.slice((page - 1) * items, page * items);
    return { entries, hasNextPage: page * items < this.entries.length, unreadable: 0 };
  }
}

/**
 * The feed on a real SQLite store and the Slack stand-in behind a real WebClient; the payment
 * service's side is `histories` (one per workspace) and `unreadable` (invoices whose read fails).
 */
export async function feedWorld(options: Partial<FeedRunnerOptions> = {}, now?: () => Date) {
  const dir = mkdtempSync(join(tmpdir(), "kassa-feed-"));
  const store: KeyvStore = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
  const slack: SlackStandIn = await startSlackStandIn();
  const ledger: FeedLedger = await openFeedLedger(store);
  const feeds = new FeedStore(store.namespace("feedsubs"), ledger, store.namespace("feedcards"), () =>
    openClaimBoard(store),
  );
  const histories = new Map<string, RegisterHistory>();
  const unreadable = new Set<string>();
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) });
  const client = new webApi.WebClient("xoxb-feed-tests", {
    slackApiUrl: slack.apiUrl,
    retryConfig: { retries: 0 },
  });
  const history = (team: string) => {
    const found = histories.get(team) ?? new RegisterHistory();
    histories.set(team, found);
    return found;
  };
  const reader: FeedReader = {
    history: (team, page, items, priority) => history(team).page(page, items, priority),
    invoice: async (team, id): Promise<Invoice> => {
      if (unreadable.has(id)) throw new Error("Invoice not found");
      const entry = history(team).entries.find((candidate) => candidate.id === id);
      return { ...unpaidInvoice(id), state: entry?.state ?? "notpayed" };
    },
    methodFor: async () => undefined,
  };
  /** A replica's feed runner; `clock` stands for its own clock (a replica stalled or behind). */
  const runner = (extra: Partial<FeedRunnerOptions> = {}, clock = now) =>
    new FeedRunner(
      {
        feeds,
        ledger,
        reader,
        slack: async () => client,
        logger,
        ...(clock ? { clock: clockReading(clock) } : {}),
      },
      { intervalMs: 200, pollMs: 20, ...options, ...extra },
    );
  /** Feed messages posted in `channel` about `id`. */
  const posts = (channel: string, id?: string) =>
    slack
      .callsOf("chat.postMessage")
      .filter(
        (call) => call.body.channel === channel && (id === undefined || String(call.body.text).includes(id)),
      );
  return {
    store,
    slack,
    ledger,
    feeds,
    history,
    unreadable,
    lines,
    runner,
    posts,
    async close() {
      await slack.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type FeedWorld = Awaited<ReturnType<typeof feedWorld>>;
