import { randomBytes } from "node:crypto";
import type { webApi } from "@slack/bolt";
import type { HistoryPage } from "../payments/history.js";
import { directChannel } from "../slack/files.js";
import type { Logger } from "../util/logger.js";
import { type ExportEnd, type ExportRequest, runExport } from "./run.js";

export type ExportJobsDeps = {
  /** One page of the workspace's history, as a background read (it yields to commands). */
  history: (teamId: string, page: number, items: number) => Promise<HistoryPage>;
  logger: Logger;
};

type Job = {
  id: string;
  by: string;
  startedAt: number;
  controller: AbortController;
  done: Promise<ExportEnd>;
};

/** What starting an export came to, for the asker's reply. */
export type ExportStart =
  | { started: true; jobId: string }
  | { started: false; busy: { by: string; startedAt: number } }
  | { started: false; needsScope: true };

/**
 * The exports under way, one per workspace: started by `/invoice export`, cancelled by the asker's
 * Cancel, stopped (and said so) at shutdown. The file goes to the asker's messages with Kassa.
 */
export class ExportJobs {
  private readonly running = new Map<string, Job>();

  constructor(private readonly deps: ExportJobsDeps) {}

  /**
   * Opens the asker's direct messages with Kassa first (so a missing permission is said in the
   * reply), then runs the export in the background.
   */
  async start(request: ExportRequest, client: webApi.WebClient): Promise<ExportStart> {
    const current = this.running.get(request.teamId);
    if (current) return { started: false, busy: { by: current.by, startedAt: current.startedAt } };
    let channel: string;
    try {
      channel = await directChannel(client, request.userId);
    } catch (error) {
      this.deps.logger.warn(
        { team: request.teamId, err: error },
        "cannot open the asker's messages with Kassa",
      );
      return { started: false, needsScope: true };
    }
    // Checked again: another asker may have started one while Slack answered.
    const raced = this.running.get(request.teamId);
    if (raced) return { started: false, busy: { by: raced.by, startedAt: raced.startedAt } };
    const controller = new AbortController();
    const jobId = randomBytes(8).toString("hex");
    const job: Job = {
      id: jobId,
      by: request.userId,
      startedAt: Date.now(),
      controller,
      done: runExport({
        request,
        jobId,
        client,
        channel,
        readPage: (page, items) => this.deps.history(request.teamId, page, items),
        signal: controller.signal,
      }),
    };
    this.running.set(request.teamId, job);
    void job.done
      .then((end) => this.logEnd(request, jobId, end))
      .catch((error: unknown) =>
        this.deps.logger.error({ team: request.teamId, err: error }, "export crashed"),
      )
      .finally(() => {
        if (this.running.get(request.teamId) === job) this.running.delete(request.teamId);
      });
    return { started: true, jobId };
  }

  /** Cancel from the progress message: only the asker's own export. */
  cancel(teamId: string, jobId: string, userId: string): "cancelled" | "not_yours" | "not_running" {
    const job = this.running.get(teamId);
    if (!job || job.id !== jobId) return "not_running";
    if (job.by !== userId) return "not_yours";
    job.controller.abort(`cancelled:${userId}`);
    return "cancelled";
  }

  /** At shutdown: every export stops and says so, within `graceMs`. */
  async close(graceMs: number): Promise<void> {
    const jobs = [...this.running.values()];
    for (const job of jobs) job.controller.abort("stopping");
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(jobs.map((job) => job.done)),
      new Promise((resolve) => {
        timer = setTimeout(resolve, graceMs);
      }),
    ]);
    clearTimeout(timer);
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
    if (end.outcome === "export_failed") this.deps.logger.warn(line, "export not sent");
    else this.deps.logger.info(line, "export ended");
  }
}
