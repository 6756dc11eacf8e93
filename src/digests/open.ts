import type { webApi } from "@slack/bolt";
import { ExportJobs } from "../exports/jobs.js";
import { owedExportsFor } from "../exports/owed.js";
import { KeptHistory } from "../history/kept.js";
import { linkBookFor } from "../links/index.js";
import { unpaidTally } from "../links/unpaid.js";
import type { WorkspacePayments } from "../registers/workspace-payments.js";
import type { PaidRefund } from "../reports/refunds.js";
import { CancelMarks } from "../store/cancels.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { KeyvStore } from "../store/connection.js";
import { DEFAULT_STORE_TIMEOUT_MS } from "../store/deadline.js";
import { leasesFor } from "../store/leases.js";
import type { RegisterDirectory } from "../store/registers.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { SettingsStore } from "../store/settings.js";
import { type Clock, systemClock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { DigestRunner } from "./runner.js";
import { DigestStore } from "./store.js";

/** The digests' count of the payment links still unpaid, on the links' records (issue 51). */
function unpaidOf(
  store: Pick<KeyvStore, "native">,
  deps: Pick<Parameters<typeof openPeriodWork>[1], "payments" | "leasePrefix" | "storeTimeoutMs" | "clock">,
) {
  const clock = deps.clock ?? systemClock;
  const now = () => clock.now();
  const timeoutMs = deps.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  const links = linkBookFor(store, { prefix: deps.leasePrefix, timeoutMs, now });
  return (registerKey: string, from: number) =>
    unpaidTally({ links, payments: deps.payments }, registerKey, from, now());
}

/**
 * The work over periods, on Kassa's store: each register's kept history (read in the background
 * lane of its budget), the engine's leases, the shared Cancel marks, the exports under way (and what
 * each owes its asker, the claim board's family `export-owed`), and the
 * weekly and monthly digests (what admins set, namespace `digests`, and their runner).
 */
export async function openPeriodWork(
  store: Pick<KeyvStore, "namespace" | "native" | "claimOnce" | "location">,
  deps: {
    payments: WorkspacePayments;
    settings: SettingsStore;
    slack: (team: string) => Promise<webApi.WebClient | undefined>;
    zone: string;
    /** Each register's name (where its workspace has several) and the channels it is kept to. */
    registers?: Pick<RegisterDirectory, "shown"> | undefined;
    logger: Logger;
    clock?: Clock | undefined;
    digestIntervalMs: number;
    /** STORE_TIMEOUT_MS: each claim board call's deadline. */
    storeTimeoutMs?: number | undefined;
    /** Where the leases live in Redis or PostgreSQL (tests give each run its own, as for the watches). */
    leasePrefix?: string | undefined;
    /** The leases of long reads, an export's and a history refresh's (defaults 60 s and 30 s); tests shorten them. */
    readLeaseMs?: number | undefined;
    /** A register's paid refunds (issue 52): exports and month files show them apart from the takings. */
    refunds?: ((registerKey: string) => Promise<readonly PaidRefund[]>) | undefined;
  },
) {
  const leases = await leasesFor(store, deps.leasePrefix);
  const { payments, logger, registers } = deps;
  const history = new KeptHistory({
    // Read through once per report: a small page cache is enough (a month is megabytes).
    keyv: store.namespace("history", { durability: "process", pageCacheKib: 2048 }),
    leases,
    page: (team, page, items) => payments.history(team, page, items, "background"),
    register: (team) => payments.register(team),
    zone: deps.zone,
    logger,
    leaseMs: deps.readLeaseMs,
  });
  const cancels = new CancelMarks(store.namespace("cancels"));
  const digests = new DigestStore(store.namespace("digests"), store.namespace("digeststate"), () =>
    openClaimBoard(store, deps.leasePrefix ?? DEFAULT_PREFIX, deps.storeTimeoutMs),
  );
  const digestRunner = new DigestRunner(
    {
      store: digests,
      history,
      leases,
      claimOnce: (key, ttlMs, owner) => store.claimOnce(key, ttlMs, owner),
      slack: deps.slack,
      ...(registers ? { registers: (key: string) => registers.shown(key) } : {}),
      unpaid: unpaidOf(store, deps),
      refunds: deps.refunds,
      settings: async (team) => {
        const settings = await deps.settings.get(team);
        return { lang: settings.language ?? "en", everyone: settings.balanceVisibility === "everyone" };
      },
      logger,
      ...(deps.clock ? { clock: deps.clock } : {}),
    },
    { intervalMs: deps.digestIntervalMs },
  );
  return {
    history,
    cancels,
    exports: new ExportJobs({
      history,
      leases,
      cancels,
      // Replica-shared work, kept apart per run as the leases are (tests).
      owed: await owedExportsFor(store, deps.leasePrefix),
      ...(deps.clock ? { clock: deps.clock } : {}),
      slack: deps.slack,
      logger,
      ...(deps.readLeaseMs ? { leaseMs: deps.readLeaseMs } : {}),
      ...(deps.refunds ? { refunds: deps.refunds } : {}),
    }),
    digests,
    digestRunner,
  };
}
