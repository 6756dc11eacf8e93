import type { AuditLog } from "../audit/index.js";
import type { ReplyVisibility } from "../blocks/invoice.js";
import type { CallbackAddresses } from "../callbacks/keys.js";
import type { DigestStore } from "../digests/store.js";
import type { ExportJobs } from "../exports/jobs.js";
import type { FeedStore } from "../feed/store.js";
import type { KeptHistory } from "../history/kept.js";
import type { ScheduleBook } from "../link-schedules/book.js";
import type { LinkBook } from "../links/book.js";
import type { MethodWatches } from "../method-watch/state.js";
import type { BalanceAlerts } from "../money-alerts/index.js";
import type { ApiVersion } from "../payments/model.js";
import type { PaymethodsPages } from "../paymethods/pages.js";
import type { MethodSwitches } from "../paymethods/switch.js";
import type { PayoutPolicies } from "../payouts/policy-store.js";
import type { PayoutDeps } from "../payouts/request-deps.js";
import type { WorkspacePayments } from "../registers/workspace-payments.js";
import type { CancelMarks } from "../store/cancels.js";
import type { Stores } from "../store/index.js";
import type { RateLimiter } from "../store/rate-limit.js";
import type { InFlight } from "../util/in-flight.js";
import type { Logger } from "../util/logger.js";
import type { WatchRegistry } from "../watch/registry.js";

/** What every listener may use; built once in app.ts. */
export type ListenerDeps = {
  payments: WorkspacePayments;
  /** The method list's pages, built once per list and view. */
  paymethodsPages: PaymethodsPages;
  stores: Pick<
    Stores,
    "credentials" | "settings" | "installations" | "callbackKeys" | "cardOwners" | "registers"
  >;
  logger: Logger;
  /** PAYMENTS_TIMEOUT_MS, quoted in the "did not answer" reply. */
  timeoutMs: number;
  now: () => Date;
  /** REPLY_VISIBILITY: where /invoice cards go unless the workspace chose otherwise. */
  replyVisibility: ReplyVisibility;
  /** ADMIN_USER_IDS. */
  adminUserIds: string[];
  /** PAYMENTS_API_VERSION, for workspaces that did not choose one. */
  defaultApiVersion: ApiVersion;
  /** RATE_LIMIT_USER_PER_MIN / RATE_LIMIT_TEAM_PER_MIN, counted in the shared store. */
  rateLimiter: RateLimiter;
  /** Replies still being worked on; shutdown waits for them. */
  inFlight: InFlight;
  /** Live cards: starts and stops watches (the watcher itself runs apart from the listeners). */
  watches: WatchRegistry;
  /** PAYMENTS_TIMEZONE: the service's own zone, when a reader's is not known. */
  serviceTimeZone: string;
  /** Payment feeds: which channels follow the workspace's cash register. */
  feeds: FeedStore;
  /** Exports under way: one per workspace, started by /invoice export. */
  exports: ExportJobs;
  /** Each register's kept history: reports read it (and bring it up to date). */
  history: KeptHistory;
  /** Cancel presses on long reads, shared by the replicas. */
  cancels: CancelMarks;
  /** The weekly and monthly digests (the daily one is the feed's). */
  digests: DigestStore;
  /** The audit trail: each act is recorded with recordAct (listeners/contexts/audit.ts). */
  audit: AuditLog;
  /** The store's claimOnce: true for one caller per key across replicas (KeyvStore.claimOnce). */
  claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
  /** The workspaces' callback addresses (PUBLIC_URL set, HTTP mode); undefined: no callbacks. */
  callbacks: CallbackAddresses | undefined;
  /** Each register's payout policy (payouts are off without one). */
  payoutPolicies: PayoutPolicies;
  /** Payout requests: ask, approve, reject, cancel (each handler says who the workspace's admins are). */
  payouts: PayoutDeps;
  /** Each register's balance alerts (`/balance alert`), checked by the money alerts. */
  balanceAlerts: BalanceAlerts;
  /** The payment links Kassa asks for (issue 51): each one's record, written before it is created. */
  links: LinkBook;
  /** Repeating invoices (issue 51): made by the create form, listed and changed by `/invoice recurring`. */
  schedules: ScheduleBook;
  /** Each register's payment methods watch (`/paymethods watch`), checked by the methods watch. */
  methodWatches: MethodWatches;
  /** METHOD_CHECK_MS: how often the methods watch reads (the form's reply says when the first check comes). */
  methodCheckMs: number;
  /** Payment methods switched and surcharges set at the service (`/paymethods off|on|surcharge`). */
  methodSwitches: MethodSwitches;
};
