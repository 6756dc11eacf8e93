import type { webApi } from "@slack/bolt";
import { DEFAULT_LANG, type Lang } from "../i18n/lang.js";
import type { HistoryEntry } from "../payments/history.js";
import type { Invoice, PaymentMethod } from "../payments/model.js";
import type { Logger } from "../util/logger.js";
import type { FeedStore } from "./store.js";

/** What the feed reads from the payment service (WorkspacePayments). */
export type FeedReader = {
  history(
    teamId: string,
    page: number,
    items: number,
  ): Promise<{ entries: HistoryEntry[]; hasNextPage: boolean | null; unreadable: number }>;
  invoice(teamId: string, invoiceId: string): Promise<Invoice>;
  methodFor(teamId: string, code: string): Promise<PaymentMethod | undefined>;
  /** The language the workspace's feed is written in (English when not given). */
  languageOf?(teamId: string): Promise<Lang>;
};

export type FeedRunnerDeps = {
  feeds: FeedStore;
  reader: FeedReader;
  /** The store's claimOnce: true for one caller per key across replicas (and for its `owner` again). */
  claimOnce: (key: string, ttlMs: number, owner?: string) => Promise<boolean>;
  slack: (teamId: string) => Promise<webApi.WebClient | undefined>;
  logger: Logger;
  now?: () => Date;
};

export type FeedRunnerOptions = {
  /** FEED_INTERVAL_MS: how often each register's history is read. */
  intervalMs: number;
  /** Invoices per history page, and how many pages one pass reads at most. */
  pageSize?: number;
  maxPages?: number;
};

/** What the feed's steps share with the runner: its deps, its clock, and whether it is stopping. */
export type FeedContext = { deps: FeedRunnerDeps; now: () => Date; stopped: () => boolean };

/** The workspace's language; English when it cannot be read (a payment is never left unposted for it). */
export async function feedLanguage(ctx: FeedContext, team: string): Promise<Lang> {
  return (await ctx.deps.reader.languageOf?.(team).catch(() => undefined)) ?? DEFAULT_LANG;
}
