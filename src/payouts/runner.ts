import type { webApi } from "@slack/bolt";
import type { AuditRecorder } from "../audit/index.js";
import { type ClaimBoard, openClaimBoard } from "../store/claims/index.js";
import type { CredentialsStore } from "../store/credentials.js";
import type { KeyvStore } from "../store/keyv.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import { type Clock, systemClock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { RepeatingPass } from "../util/repeating.js";
import { type PayoutPolicies, payoutPoliciesFor } from "./policy-store.js";
import {
  type BatchHooks,
  DEFAULT_PAYOUT_TIMING,
  type PayoutDeps,
  type PayoutTiming,
  payoffAccounts,
  payoutTimingFor,
  type RecipientHooks,
} from "./request-deps.js";
import { runDuePayouts } from "./worker.js";

// Every replica runs the payout worker every PAYOUT_RUN_MS; the board gives each due request to one
// claim at a time, so replicas share the work and nothing is done twice.

export type PayoutWork = {
  /** What requests, votes and the worker use (the listeners add who is an admin per request). */
  deps: PayoutDeps;
  policies: PayoutPolicies;
  runner: PayoutRunner;
};

export class PayoutRunner {
  private readonly loop: RepeatingPass;

  constructor(deps: PayoutDeps, options: { intervalMs: number; clock: Clock }) {
    this.loop = new RepeatingPass(() => runDuePayouts(deps, new Date(options.clock.now())), {
      intervalMs: () => options.intervalMs,
      failed: (error) => deps.logger.error({ err: error }, "payout run failed"),
      clock: options.clock,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One run now, after the one under way (tests drive the worker this way). */
  passNow(): Promise<void> {
    return this.loop.runNow();
  }

  /** Stops looking; a run under way finishes within `graceMs` (a claim it drops lapses to another replica). */
  close(graceMs = 3000): Promise<void> {
    return this.loop.close(graceMs);
  }
}

/** The payouts' board, policies and worker on the store (the worker not yet started). */
export async function openPayouts(
  store: KeyvStore,
  options: {
    payments: PayoutDeps["payments"];
    /** PAYMENTS_TIMEOUT_MS and PAYMENTS_MAX_QUEUE_MS: a claim outlives a send and its wait (payoutTimingFor). */
    paymentsTimeoutMs: number;
    paymentsMaxQueueMs?: number | undefined;
    credentials: Pick<CredentialsStore, "get">;
    slack: (team: string) => Promise<webApi.WebClient | undefined>;
    audit: AuditRecorder;
    logger: Logger;
    storeTimeoutMs: number;
    /** SLACK_TIMEOUT_MS: a request's first look waits out its maker's posts (announceMs). */
    slackTimeoutMs?: number | undefined;
    intervalMs: number;
    clock?: Clock | undefined;
    timing?: Partial<PayoutTiming> | undefined;
    /** The trusted recipients on the same board (src/payout-recipients, above this folder's reach). */
    recipients?: ((board: ClaimBoard) => RecipientHooks) | undefined;
    /** The batches on the same deps (src/payout-batches, likewise). */
    batches?: ((deps: PayoutDeps) => BatchHooks) | undefined;
  },
): Promise<PayoutWork> {
  const board = await openClaimBoard(store, DEFAULT_PREFIX, options.storeTimeoutMs);
  const policies = payoutPoliciesFor(store, options.storeTimeoutMs);
  const deps: PayoutDeps = {
    board,
    policies,
    payments: options.payments,
    account: payoffAccounts(options.credentials),
    // The worker never asks; a request's handler says who the workspace's admins are.
    isAdmin: async () => false,
    audit: options.audit,
    logger: options.logger,
    slack: options.slack,
    ...(options.recipients ? { recipients: options.recipients(board) } : {}),
    timing: {
      ...payoutTimingFor(options.paymentsTimeoutMs, options.paymentsMaxQueueMs),
      // The maker posts the card and the copy, and looks once more: five Slack calls at most.
      announceMs: Math.max(DEFAULT_PAYOUT_TIMING.announceMs, 5 * (options.slackTimeoutMs ?? 0)),
      ...options.timing,
    },
  };
  if (options.batches) deps.batches = options.batches(deps);
  const runner = new PayoutRunner(deps, {
    intervalMs: options.intervalMs,
    clock: options.clock ?? systemClock,
  });
  return { deps, policies, runner };
}
