import { randomBytes } from "node:crypto";
import type { webApi } from "@slack/bolt";
import type { KeptHistory } from "../history/kept.js";
import type { PaidRefund } from "../reports/refunds.js";
import { directChannel } from "../slack/files.js";
import type { CancelMarks } from "../store/cancels.js";
import type { Leases } from "../store/leases.js";
import { type Clock, settledWithin, systemClock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { type OwedExport, type OwedExports, OwedNote, tellLapsed } from "./owed.js";
import { type ExportEnd, type ExportRequest, runExport } from "./run.js";

export type ExportJobsDeps = {
  history: KeptHistory;
  leases: Leases;
  cancels: CancelMarks;
  /** Each export's asker and progress message, written down while it runs (the board's `export-owed`). */
  owed: OwedExports;
  /** A workspace's Slack client for background work (telling an asker another replica left). */
  slack: (team: string) => Promise<webApi.WebClient | undefined>;
  logger: Logger;
  /** An export's lease: renewed every third of it while it runs; a replica that dies frees it after this. */
  leaseMs?: number;
  /** The time and timers of the exports' leases and owed notes (the system's clock by default). */
  clock?: Clock;
  /** A register's paid refunds (issue 52): the file's refunds column and line (none shown without). */
  refunds?: (registerKey: string) => Promise<readonly PaidRefund[]>;
};

const LEASE_MS = 60_000;

type Job = { id: string; by: string; controller: AbortController; done: Promise<ExportEnd> };

/** The workspace's export lease (`key`), held by the export `jobId`. */
type ExportLease = { key: string; jobId: string };

/** An export that has its lease, the asker's channel and its entry written down. */
type Started = {
  request: ExportRequest;
  client: webApi.WebClient;
  channel: string;
  lease: ExportLease;
  note: OwedNote;
};

/** What starting an export came to, for the asker's reply. */
export type ExportStart =
  | { started: true; jobId: string }
  | { started: false; busy: { by: string; startedAt: number } }
  | { started: false; needsScope: true };

/**
 * The exports under way, one per workspace across replicas (a lease whose holder's info names the
 * asker and when): started by `/invoice export`, cancelled by the asker's or an admin's Cancel (on whichever
 * replica it lands: a mark in the store), stopped (and said so) at shutdown. A replica that loses
 * the lease stops and writes nothing more. Each export is owed to its asker in the store while it
 * runs: when its replica dies, another one tells the asker (sweepLapsed, or the next start in the
 * workspace), once.
 */
export class ExportJobs {
  private readonly running = new Map<string, Job>();
  private readonly leaseMs: number;
  private readonly clock: Clock;

  constructor(private readonly deps: ExportJobsDeps) {
    this.leaseMs = deps.leaseMs ?? LEASE_MS;
    this.clock = deps.clock ?? systemClock;
  }

  /**
   * Takes the workspace's export lease, opens the asker's messages with Kassa (so a missing
   * permission is said in the reply), then runs the export in the background.
   */
  async start(request: ExportRequest, client: webApi.WebClient): Promise<ExportStart> {
    const jobId = randomBytes(8).toString("hex");
    const lease: ExportLease = { key: `export:${request.teamId}`, jobId };
    // Asked before the lease: the entry's claim, renewed from the same moments, never outlives it.
    const at = this.clock.now();
    const busy = await this.takeLease(request, lease, at);
    if (busy) return busy;
    // The workspace's lease is ours: an export still owed here died with its replica (its entry's
    // claim ended no later than its lease; one that stopped without a word left it due). Its asker
    // hears so first (once, whichever replica gets there).
    await this.tellLapsed({ team: request.teamId, except: jobId });
    let channel: string;
    try {
      channel = await directChannel(client, request.userId);
    } catch (error) {
      await this.deps.leases.release(lease.key, jobId).catch(() => {});
      this.deps.logger.warn(
        { team: request.teamId, err: error },
        "cannot open the asker's messages with Kassa",
      );
      return { started: false, needsScope: true };
    }
    const note = this.owe(request, jobId, channel, at);
    await note.write();
    this.runInBackground({ request, client, channel, lease, note });
    return { started: true, jobId };
  }

  /**
   * Cancel from the progress message, once the listener has checked the presser may (the asker or
   * an admin): marked in the store, so the export stops after its next page on whichever replica
   * runs it, here at once.
   */
  async cancel(teamId: string, jobId: string, userId: string): Promise<void> {
    const job = this.running.get(jobId);
    await this.deps.cancels.mark(jobId, userId);
    if (job) job.controller.abort(`cancelled:${userId}`);
    this.deps.logger.info({ team: teamId, export: jobId, local: job !== undefined }, "export cancel asked");
  }

  /** Who asked for an export this replica runs (for a Cancel button that does not say). */
  askerOf(jobId: string): string | undefined {
    return this.running.get(jobId)?.by;
  }

  /**
   * Tells the askers of exports whose replica died (no lease renewal for a lease's time) that theirs
   * stopped; with `only`, those of a workspace whose export lease the caller has just taken. Run
   * with the command journal's sweep (at start-up, and every few seconds on a shared store).
   */
  async tellLapsed(only?: { team: string; except: string }): Promise<void> {
    try {
      const now = () => this.clock.now();
      const claimed = await this.deps.owed.claimLapsed(now(), only);
      await tellLapsed(this.deps.owed, claimed, this.deps.slack, this.deps.logger, now);
    } catch (error) {
      this.deps.logger.warn({ err: error }, "could not look for exports a stopped replica left");
    }
  }

  /** At shutdown: every export stops and says so, within `graceMs`. */
  async close(graceMs: number): Promise<void> {
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort("stopping");
    await settledWithin(Promise.allSettled(jobs.map((job) => job.done)), graceMs);
  }

  /** The workspace's export lease for `jobId`; when another export holds it, who started it and when. */
  private async takeLease(
    request: ExportRequest,
    lease: ExportLease,
    startedAt: number,
  ): Promise<ExportStart | undefined> {
    const info = `${request.userId} ${startedAt}`;
    const taken = await this.deps.leases.acquire(lease.key, lease.jobId, info, this.leaseMs);
    if (taken.held) return undefined;
    const [by = "", at = ""] = (taken.info ?? "").split(" ");
    return { started: false, busy: { by, startedAt: Number(at) || startedAt } };
  }

  /** What the export owes its asker, as it will be written down while it runs (`at`: its lease taken). */
  private owe(request: ExportRequest, jobId: string, channel: string, at: number): OwedNote {
    const entry: OwedExport = {
      v: 1,
      team: request.teamId,
      user: request.userId,
      channel,
      lang: request.lang,
      title: request.title,
      format: request.format.toUpperCase(),
    };
    const { owed, logger } = this.deps;
    return new OwedNote(owed, jobId, entry, { at, ms: this.leaseMs }, logger, () => this.clock.now());
  }

  /** The export runs, its lease renewed every third of it, until it ends; then the lease is freed. */
  private runInBackground(started: Started): void {
    const { request, lease } = started;
    const controller = new AbortController();
    const renewal = this.clock.every(this.leaseMs / 3, () => {
      const at = this.clock.now();
      void this.deps.leases.renew(lease.key, lease.jobId, this.leaseMs).then(
        (held) => {
          if (!held) return controller.abort("lost");
          return started.note.beat(at);
        },
        () => {},
      );
    });
    const job: Job = {
      id: lease.jobId,
      by: request.userId,
      controller,
      done: this.run(started, controller),
    };
    this.running.set(lease.jobId, job);
    void job.done
      .then((end) => this.logEnd(request, lease.jobId, end))
      .catch((error: unknown) =>
        this.deps.logger.error({ team: request.teamId, err: error }, "export crashed"),
      )
      .finally(() => {
        renewal.cancel();
        this.running.delete(lease.jobId);
        void this.deps.leases.release(lease.key, lease.jobId).catch(() => {});
      });
  }

  private async run(started: Started, controller: AbortController): Promise<ExportEnd> {
    const { request, lease, note } = started;
    const { history, refunds } = this.deps;
    const registerKey = request.registerKey ?? request.teamId;
    const end = await runExport({
      request,
      jobId: lease.jobId,
      client: started.client,
      channel: started.channel,
      read: (span, onEntry, options) => history.read(registerKey, span, onEntry, options),
      refunds: refunds && (() => refunds(registerKey)),
      signal: controller.signal,
      checkpoint: async () => {
        // Only the asker or an admin can have marked it: the Cancel listener checks before marking.
        const by = await this.deps.cancels.markedBy(lease.jobId).catch(() => undefined);
        if (by && !controller.signal.aborted) controller.abort(`cancelled:${by}`);
      },
      stillOurs: async () => {
        if (!(await this.deps.leases.renew(lease.key, lease.jobId, this.leaseMs)))
          throw new Error("export lease lost");
      },
      onProgressPosted: (ts) => void note.posted(ts),
    }).catch(async (error: unknown) => {
      // Crashed without a word to the asker: still owed an end, as when lost.
      await note.leave();
      throw error;
    });
    // Lost: this replica said nothing, so the asker is still owed an end, due at once (the next sweep,
    // or the workspace's next export, tells them). Otherwise settled before `done`: shutdown waits
    // for it, so a stopped process leaves none.
    if (end.outcome === "export_lost") await note.leave();
    else await note.settle();
    return end;
  }

  private logEnd(request: ExportRequest, jobId: string, end: ExportEnd): void {
    const line = {
      team: request.teamId,
      user: request.userId,
      export: jobId,
      period: request.bounds.period,
      format: request.format,
      ...end,
    };
    if (end.outcome === "export_failed" || end.outcome === "export_lost")
      this.deps.logger.warn(line, "export not sent");
    else this.deps.logger.info(line, "export ended");
  }
}
