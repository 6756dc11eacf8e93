import { AuditDayRunner } from "../audit/daily.js";
import { openAuditTrail } from "../audit/index.js";
import { OWED_PASS_MS, OwedAuditRunner } from "../audit/owed.js";
import type { Config } from "../config/index.js";
import { batchHooks } from "../payout-batches/follow.js";
import { recipientHooks } from "../payout-recipients/lookup.js";
import type { PayoutTiming } from "../payouts/request-deps.js";
import { readRequest } from "../payouts/request-model.js";
import { openPayouts, type PayoutWork } from "../payouts/runner.js";
import { followNow } from "../payouts/worker.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { Stores } from "../store/index.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { Clock } from "../util/clock.js";
import type { Closers } from "../util/closers.js";
import type { Logger } from "../util/logger.js";
import { slackClients } from "../watch/index.js";
import { type paymentsClient, starting } from "./start-steps.js";

/** The audit trail, the payouts, and the trail's two background runners (opened, not started). */
export type Records = Awaited<ReturnType<typeof openRecords>>;

type RecordsOptions = {
  clock: Clock;
  watchNamespace?: string | undefined;
  payoutTiming?: Partial<PayoutTiming> | undefined;
};

/**
 * The audit trail, the payouts (which write to it), the audit trail's daily work and the drain of
 * the entries owed: a store that cannot keep them stops the start.
 */
export async function openRecords(
  config: Config,
  stores: Stores,
  client: ReturnType<typeof paymentsClient>,
  logger: Logger,
  closers: Closers,
  options: RecordsOptions,
) {
  const { store, credentials } = stores;
  const audit = await starting(closers, "cannot set up the audit trail in the store", () =>
    openAuditTrail(store, auditOptions(config, options)),
  );
  const payouts = await starting(closers, "cannot set up payouts in the store", () =>
    openPayouts(store, {
      payments: client,
      paymentsTimeoutMs: config.payments.timeoutMs,
      paymentsMaxQueueMs: config.payments.perRegister.maxWaitMs,
      credentials,
      slack: slackClients(config, stores),
      audit,
      logger,
      storeTimeoutMs: config.store.timeoutMs,
      slackTimeoutMs: config.slack.timeoutMs,
      intervalMs: config.payoutRunMs,
      clock: options.clock,
      timing: options.payoutTiming,
      recipients: recipientHooks,
      batches: batchHooks,
    }),
  );
  // Once a UTC day per workspace: retention, and the chain's head posted in its audit channel.
  const auditDay = await starting(
    closers,
    "cannot set up the audit trail's daily work in the store",
    async () => {
      const board = await openClaimBoard(
        store,
        options.watchNamespace ?? DEFAULT_PREFIX,
        config.store.timeoutMs,
      );
      const deps = {
        trail: audit,
        board,
        settings: stores.settings,
        slack: slackClients(config, stores),
        logger,
      };
      return new AuditDayRunner(deps, {
        intervalMs: config.audit.checkMs,
        clock: options.clock,
      });
    },
  );
  // Entries owed by acts whose append did not happen (the store failed, a replica died): on the
  // payouts' board, where the acts write them.
  const auditOwed = new OwedAuditRunner(
    { board: payouts.deps.board, audit, logger },
    { intervalMs: OWED_PASS_MS, clock: options.clock },
  );
  return { audit, payouts, auditDay, auditOwed };
}

/**
 * A signed payout callback on a register's address: the request is read now, when it is that
 * register's (a register's Secret 2 signs for its own payouts only); another's is left alone.
 */
export function payoutNudge(deps: PayoutWork["deps"], logger: Logger, now: () => Date) {
  return async (registerKey: string, id: string): Promise<void> => {
    try {
      const read = await readRequest(deps.board, id);
      if (read?.request.registerKey !== registerKey) {
        logger.warn(
          { registerKey, payout: id, outcome: "payout_callback_elsewhere" },
          "a payout callback named a payout of no request of this register: nothing read",
        );
        return;
      }
      await followNow(deps, id, now());
    } catch (error) {
      logger.warn({ payout: id, err: error }, "could not mark a payout to be read after its callback");
    }
  };
}

/**
 * The audit trail's retention and deadline; a test run's own prefix in a shared store, and its clock
 * (the server's `now`), so entries, retention and the daily work keep one time.
 */
function auditOptions(config: Config, options: RecordsOptions) {
  const { clock } = options;
  return {
    retentionDays: config.audit.retentionDays,
    timeoutMs: config.store.timeoutMs,
    ...(options.watchNamespace ? { prefix: options.watchNamespace } : {}),
    now: () => clock.now(),
  };
}
