import type { webApi } from "@slack/bolt";
import { DEFAULT_LANG, type Lang } from "../i18n/lang.js";
import type { HistoryEntry } from "../payments/history.js";
import type { Invoice, PaymentMethod } from "../payments/model.js";
import type { CallPriority } from "../payments/register-queue.js";
import type { RegisterShown } from "../store/registers.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import type { FeedLedger } from "./ledger.js";
import type { FeedState } from "./model.js";
import type { FeedStore } from "./store.js";

/**
 * What the feed reads from the payment service (WorkspacePayments). Every `teamId` here, as the
 * feed's `team` throughout, is a register's key (main's is the team id itself: src/store/registers.ts).
 */
export type FeedReader = {
  /** `background`: a page read only to look again at open invoices, behind people's calls. */
  history(
    teamId: string,
    page: number,
    items: number,
    priority?: CallPriority,
  ): Promise<{ entries: HistoryEntry[]; hasNextPage: boolean | null; unreadable: number }>;
  invoice(teamId: string, invoiceId: string): Promise<Invoice>;
  methodFor(teamId: string, code: string): Promise<PaymentMethod | undefined>;
  /** The language the workspace's feed is written in (English when not given). */
  languageOf?(teamId: string): Promise<Lang>;
};

export type FeedRunnerDeps = {
  feeds: FeedStore;
  ledger: FeedLedger;
  reader: FeedReader;
  /** The Slack client of the register's workspace (undefined: not installed). */
  slack: (registerKey: string) => Promise<webApi.WebClient | undefined>;
  /**
   * The register as its workspace's directory has it: whether the workspace has several (then each
   * post says which register), and the channels it is kept to (its feed posts only there). Left out:
   * one register, kept nowhere.
   */
  registers?: (registerKey: string) => Promise<RegisterShown>;
  logger: Logger;
  /** The feed's time and timers (the system's by default). */
  clock?: Clock;
};

export type FeedRunnerOptions = {
  /** FEED_INTERVAL_MS: how often each register's history is read. */
  intervalMs: number;
  /** FEED_CONCURRENCY: workspaces one replica works on at once. */
  concurrency?: number;
  /** A turn's claim on its workspace; renewed every third of it while the turn works. */
  leaseMs?: number;
  /** A turn's share of time: past it, the turn posts no more and its workspace goes to the back of the line. */
  turnMs?: number;
  /** Invoices per history page, and how many pages one turn reads at most. */
  pageSize?: number;
  maxPages?: number;
  /** Messages one turn posts in one channel at most (a backlog drains over several turns). */
  postsPerTurn?: number;
  /**
   * How often a replica asks the ledger for due workspaces (one indexed query or script): a
   * workspace comes due at its interval, and waits at most this long beyond it for a replica.
   */
  pollMs?: number;
};

/** What the feed's steps share with the runner: its deps and options, its clock, whether it is stopping. */
export type FeedContext = {
  deps: FeedRunnerDeps;
  options: Required<FeedRunnerOptions>;
  now: () => Date;
  stopped: () => boolean;
};

/**
 * One turn over one workspace's feed, holding its claim. Every state is written through it: a write
 * refused (the claim lost to another replica) marks the turn lost, and a lost or late turn stops.
 */
export type Turn = {
  ctx: FeedContext;
  /** The register's key (main's: the team id). */
  team: string;
  /** The register's name, where its workspace has several: said on every post and digest. */
  label?: string | undefined;
  /** Writes a channel's state under the claim; false when the claim is lost (nothing written). */
  write(channel: string, state: FeedState): Promise<boolean>;
  /** Renews the claim right before Slack is told something; false when it is lost. */
  stillOurs(): Promise<boolean>;
  /** The claim was lost, or the runner is stopping: take on nothing more. */
  over(): boolean;
  /** Past its share of time (or over): leave the rest for the next turn. */
  late(): boolean;
};

/** The workspace's language; English when it cannot be read (a payment is never left unposted for it). */
export async function feedLanguage(ctx: FeedContext, team: string): Promise<Lang> {
  return (await ctx.deps.reader.languageOf?.(team).catch(() => undefined)) ?? DEFAULT_LANG;
}
