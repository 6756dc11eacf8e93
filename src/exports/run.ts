import type { webApi } from "@slack/bolt";
import Big from "big.js";
import { exportEndMessage, exportProgressMessage, fileComment } from "../blocks/export.js";
import { formatAmount } from "../blocks/format.js";
import type { SlackMessage } from "../blocks/message.js";
import type { KeptRead, ReadOptions } from "../history/kept.js";
import { EXPORT_TEXT } from "../i18n/export.js";
import type { Lang } from "../i18n/lang.js";
import { PaymentsError } from "../payments/errors.js";
import type { HistoryEntry } from "../payments/history.js";
import { TEST_METHOD } from "../payments/model.js";
import { dayIn, type Period } from "../reports/periods.js";
import { rubOf } from "../reports/report.js";
import { uploadFile } from "../slack/files.js";
import { exportRow } from "./columns.js";
import { type ExportFormat, exportFile } from "./file.js";

/** History pages an export reads at most in one go: 200,000 invoices. A longer period is refused, not cut. */
export const EXPORT_MAX_PAGES = 2000;

/** The progress message appears once an export has run this long, and is edited at most this often. */
export const PROGRESS_AFTER_MS = 3000;
export const PROGRESS_EVERY_MS = 3000;

export type ExportRequest = {
  teamId: string;
  userId: string;
  bounds: Period;
  format: ExportFormat;
  lang: Lang;
  /** The report's title for the period ("Invoices in October 2026"). */
  title: string;
};

/** How an export ended, for the log and the job list. */
export type ExportEnd =
  | { outcome: "export_sent"; invoices: number; bytes: number; pages: number }
  | { outcome: "export_cancelled"; by: string; pages: number }
  | { outcome: "export_stopped"; pages: number }
  | { outcome: "export_lost"; pages: number }
  | { outcome: "export_too_long"; pages: number }
  | { outcome: "export_failed"; where: "service" | "kassa" | "slack"; pages: number; err: unknown };

export type ExportRun = {
  request: ExportRequest;
  jobId: string;
  client: webApi.WebClient;
  /** The asker's direct message channel with Kassa. */
  channel: string;
  /** The register's kept history: brought up to date and back to `since`, then handed out. */
  read: (
    span: { since: number; until: number },
    onEntry: (entry: HistoryEntry) => void,
    options: ReadOptions,
  ) => Promise<KeptRead>;
  /** Aborted with "cancelled:<user>", "stopping" or "lost" (another replica took the export over). */
  signal: AbortSignal;
  /** Called after each page: looks for a Cancel pressed on another replica (aborting `signal`). */
  checkpoint: () => Promise<void>;
  /** Before anything is sent: throws when the lease was lost (then nothing more is written). */
  stillOurs: () => Promise<void>;
  /** The progress message was posted (its ts): written down, so another replica can end it. */
  onProgressPosted?: (ts: string) => void;
};

/** `kassa-invoices-2026-10.csv`, `kassa-invoices-2026-10-28_2026-11-26.xlsx`. */
export function exportFilename(request: Pick<ExportRequest, "bounds" | "format">): string {
  const { bounds } = request;
  const first = dayIn(new Date(bounds.from * 1000), bounds.zone);
  const last = dayIn(new Date((bounds.to - 1) * 1000), bounds.zone);
  const span = /^\d{4}-\d{2}$/.test(bounds.period)
    ? bounds.period
    : first === last
      ? first
      : `${first}_${last}`;
  return `kassa-invoices-${span}.${request.format}`;
}

/**
 * One export: reads the period's invoices newest first within the register's budget, writes each
 * as a row, shows its progress (after PROGRESS_AFTER_MS, with Cancel) and sends the file to the
 * asker's messages with Kassa with one line: the period, the count and the paid total.
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: split after the export and schema work lands
export async function runExport(run: ExportRun): Promise<ExportEnd> {
  const { request, client, channel, signal } = run;
  const t = EXPORT_TEXT[request.lang];
  const format = request.format.toUpperCase();
  const progress = new ProgressMessage(
    client,
    channel,
    (state) =>
      exportProgressMessage({
        teamId: request.teamId,
        jobId: run.jobId,
        userId: request.userId,
        title: request.title,
        format,
        lang: request.lang,
        ...state,
      }),
    run.onProgressPosted,
  );
  const file = exportFile(request.format, { sheetName: t.sheetName, zone: request.bounds.zone });
  let invoices = 0;
  let paidRub = new Big(0);
  let pagesRead = 0;
  const end = async (message: SlackMessage, result: ExportEnd): Promise<ExportEnd> => {
    // A quick export's file speaks for itself; an end without a file is always said.
    if (result.outcome !== "export_sent") file.discard();
    await progress.finish(message, result.outcome !== "export_sent");
    return result;
  };
  let scan: KeptRead;
  try {
    scan = await run.read(
      { since: request.bounds.from, until: request.bounds.to },
      (entry) => {
        invoices += 1;
        file.add(exportRow(entry));
        const rub = entry.state === "payed" && entry.method !== TEST_METHOD ? rubOf(entry) : null;
        if (rub !== null) paidRub = paidRub.plus(rub);
      },
      {
        maxPages: EXPORT_MAX_PAGES,
        signal,
        onProgress: (state) => {
          pagesRead = state.pages;
          progress.show(state);
          void run.checkpoint().catch(() => undefined);
        },
      },
    );
    // A Cancel pressed during the last page still stops the export before anything is sent.
    signal.throwIfAborted();
  } catch (error) {
    const pages = pagesRead;
    const reason = signal.aborted ? String(signal.reason) : "";
    if (reason.startsWith("cancelled:")) {
      const by = reason.slice("cancelled:".length);
      return end(exportEndMessage({ kind: "cancelled", by }, request.lang), {
        outcome: "export_cancelled",
        by,
        pages,
      });
    }
    if (reason === "stopping")
      return end(exportEndMessage({ kind: "stopped" }, request.lang), { outcome: "export_stopped", pages });
    // Another replica holds the export now: this one writes nothing more, the progress line included.
    if (reason === "lost") {
      file.discard();
      return { outcome: "export_lost", pages };
    }
    // The payment service is blamed only for its own failures; anything else is said as Kassa's.
    const where = error instanceof PaymentsError ? "service" : "kassa";
    return end(exportEndMessage({ kind: "failed", where }, request.lang), {
      outcome: "export_failed",
      where,
      pages,
      err: error,
    });
  }
  if (scan.partial)
    return end(exportEndMessage({ kind: "too-long", limit: EXPORT_MAX_PAGES * 100 }, request.lang), {
      outcome: "export_too_long",
      pages: scan.pages,
    });
  progress.show({ pages: scan.pages, invoices, writing: true });
  const written = await file.finish();
  const paid = formatAmount(paidRub.toFixed(), "RUB", request.lang);
  try {
    await run.stillOurs();
  } catch {
    written.dispose();
    return { outcome: "export_lost", pages: scan.pages };
  }
  try {
    await uploadFile(client, {
      path: written.path,
      length: written.length,
      channel,
      filename: exportFilename(request),
      title: t.fileTitle(request.title),
      comment: fileComment(request.lang, {
        title: request.title,
        invoices,
        paid,
        zone: request.bounds.zone,
        read: scan,
      }),
    });
  } catch (error) {
    return end(exportEndMessage({ kind: "failed", where: "slack" }, request.lang), {
      outcome: "export_failed",
      where: "slack",
      pages: scan.pages,
      err: error,
    });
  } finally {
    written.dispose();
  }
  return end(exportEndMessage({ kind: "done", title: request.title, format }, request.lang), {
    outcome: "export_sent",
    invoices,
    bytes: written.length,
    pages: scan.pages,
  });
}

type ProgressState = { pages: number; invoices: number; writing?: boolean };

/**
 * The progress message: posted once the export has run PROGRESS_AFTER_MS, then edited at most every
 * PROGRESS_EVERY_MS, one call at a time (so a late edit never overwrites the end), and at last
 * replaced by how it ended. Slack's failures here cost only the progress line; the export goes on.
 */
class ProgressMessage {
  private ts: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private shownAt = 0;
  private readonly startedAt = Date.now();

  constructor(
    private readonly client: webApi.WebClient,
    private readonly channel: string,
    private readonly build: (state: ProgressState) => SlackMessage,
    private readonly onPosted: ((ts: string) => void) | undefined,
  ) {}

  show(state: ProgressState): void {
    const now = Date.now();
    if (now - this.startedAt < PROGRESS_AFTER_MS || now - this.shownAt < PROGRESS_EVERY_MS) return;
    this.shownAt = now;
    this.send(this.build(state));
  }

  /** The end in place of the progress; `always` false: nothing when no progress was ever shown. */
  async finish(message: SlackMessage, always = true): Promise<void> {
    if (always || this.shownAt > 0) this.send(message);
    await this.chain;
  }

  private send(message: SlackMessage): void {
    const { text, blocks } = message;
    this.chain = this.chain
      .then(async () => {
        if (this.ts) await this.client.chat.update({ channel: this.channel, ts: this.ts, text, blocks });
        else {
          this.ts = (await this.client.chat.postMessage({ channel: this.channel, text, blocks })).ts;
          if (this.ts) this.onPosted?.(this.ts);
        }
      })
      .catch(() => undefined);
  }
}
