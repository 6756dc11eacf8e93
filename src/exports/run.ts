import type { webApi } from "@slack/bolt";
import { exportEndMessage, exportProgressMessage, fileComment } from "../blocks/export.js";
import { formatAmount } from "../blocks/format.js";
import type { SlackMessage } from "../blocks/message.js";
import type { KeptRead, ReadOptions } from "../history/kept.js";
import { EXPORT_TEXT } from "../i18n/export.js";
import type { Lang } from "../i18n/lang.js";
import { Big } from "../payments/decimal.js";
import { PaymentsError } from "../payments/errors.js";
import type { HistoryEntry } from "../payments/history.js";
import { TEST_METHOD } from "../payments/model.js";
import { dayIn, type Period } from "../reports/periods.js";
import type { PaidRefund } from "../reports/refunds.js";
import { rubOf } from "../reports/report.js";
import { uploadFile } from "../slack/files.js";
import { exportRow } from "./columns.js";
import { type ExportFile, type ExportFormat, exportFile } from "./file.js";
import { ProgressMessage } from "./progress.js";
import { type ExportRefunds, exportRefunds, refundedOf, refundsNote } from "./refunds.js";

/** History pages an export reads at most in one go: 200,000 invoices. A longer period is refused, not cut. */
export const EXPORT_MAX_PAGES = 2000;

export type ExportRequest = {
  teamId: string;
  userId: string;
  bounds: Period;
  format: ExportFormat;
  lang: Lang;
  /** The report's title for the period ("Invoices in October 2026"), naming the register where several. */
  title: string;
  /** The register's key (main's, the team id, when left out) and its name where the workspace has several. */
  registerKey?: string | undefined;
  registerName?: string | undefined;
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
  /** The register's paid refunds (issue 52): a column of their own and a line, never off the takings. */
  refunds?: () => Promise<readonly PaidRefund[]>;
};

/** `kassa-invoices-2026-10.csv`, `kassa-invoices-2026-10-28_2026-11-26-shop2.xlsx` (a register named where several). */
export function exportFilename(request: Pick<ExportRequest, "bounds" | "format" | "registerName">): string {
  const { bounds } = request;
  const first = dayIn(new Date(bounds.from * 1000), bounds.zone);
  const last = dayIn(new Date((bounds.to - 1) * 1000), bounds.zone);
  const span = /^\d{4}-\d{2}$/.test(bounds.period)
    ? bounds.period
    : first === last
      ? first
      : `${first}_${last}`;
  const register = request.registerName === undefined ? "" : `-${request.registerName}`;
  return `kassa-invoices-${span}${register}.${request.format}`;
}

/**
 * One export: reads the period's invoices newest first within the register's budget, writes each
 * as a row, shows its progress (after PROGRESS_AFTER_MS, with Cancel) and sends the file to the
 * asker's messages with Kassa with one line: the period, the count and the paid total.
 */
export async function runExport(run: ExportRun): Promise<ExportEnd> {
  const { request } = run;
  const progress = progressMessage(run);
  const file = exportFile(request.format, {
    sheetName: EXPORT_TEXT[request.lang].sheetName,
    zone: request.bounds.zone,
  });
  const refunds = await exportRefunds(run.refunds, request.bounds);
  const tally: Tally = { invoices: 0, paidRub: new Big(0), pages: 0, refunds };
  let scan: KeptRead;
  try {
    scan = await readPeriod(run, file, progress, tally);
  } catch (error) {
    return endWith(file, progress, readStopped(error, run.signal, tally.pages, request.lang));
  }
  if (scan.partial)
    return endWith(file, progress, {
      message: exportEndMessage({ kind: "too-long", limit: EXPORT_MAX_PAGES * 100 }, request.lang),
      result: { outcome: "export_too_long", pages: scan.pages },
    });
  return endWith(file, progress, await sendFile(run, file, progress, scan, tally));
}

/** What the rows read so far add up to: the count, the paid total in roubles, the pages read; the refunds. */
type Tally = { invoices: number; paidRub: Big; pages: number; refunds: ExportRefunds };

/** How an export ends, and what its asker is told (nothing: another replica holds the export now). */
type Ending = { result: ExportEnd; message?: SlackMessage };

async function endWith(file: ExportFile, progress: ProgressMessage, ending: Ending): Promise<ExportEnd> {
  const { result, message } = ending;
  // A quick export's file speaks for itself; an end without a file is always said.
  if (result.outcome !== "export_sent") file.discard();
  // No message: another replica holds the export now, so this one writes nothing more, the progress line included.
  if (message) await progress.finish(message, result.outcome !== "export_sent");
  return result;
}

function progressMessage(run: ExportRun): ProgressMessage {
  const { request } = run;
  return new ProgressMessage(
    run.client,
    run.channel,
    (state) =>
      exportProgressMessage({
        teamId: request.teamId,
        jobId: run.jobId,
        userId: request.userId,
        title: request.title,
        format: request.format.toUpperCase(),
        lang: request.lang,
        ...state,
      }),
    run.onProgressPosted,
  );
}

/** The period's invoices into the file and the tally, page by page; throws when stopped or failed. */
async function readPeriod(
  run: ExportRun,
  file: ExportFile,
  progress: ProgressMessage,
  tally: Tally,
): Promise<KeptRead> {
  const { request, signal } = run;
  const scan = await run.read(
    { since: request.bounds.from, until: request.bounds.to },
    (entry) => {
      tally.invoices += 1;
      file.add(exportRow(entry, refundedOf(tally.refunds, entry.id)));
      const rub = entry.state === "payed" && entry.method !== TEST_METHOD ? rubOf(entry) : null;
      if (rub !== null) tally.paidRub = tally.paidRub.plus(rub);
    },
    {
      maxPages: EXPORT_MAX_PAGES,
      signal,
      onProgress: (state) => {
        tally.pages = state.pages;
        progress.show(state);
        void run.checkpoint().catch(() => undefined);
      },
    },
  );
  // A Cancel pressed during the last page still stops the export before anything is sent.
  signal.throwIfAborted();
  return scan;
}

/** Why the read stopped after `pages`: cancelled, stopping, lost to another replica, or failed. */
function readStopped(error: unknown, signal: AbortSignal, pages: number, lang: Lang): Ending {
  const reason = signal.aborted ? String(signal.reason) : "";
  if (reason.startsWith("cancelled:")) {
    const by = reason.slice("cancelled:".length);
    return {
      message: exportEndMessage({ kind: "cancelled", by }, lang),
      result: { outcome: "export_cancelled", by, pages },
    };
  }
  if (reason === "stopping")
    return {
      message: exportEndMessage({ kind: "stopped" }, lang),
      result: { outcome: "export_stopped", pages },
    };
  if (reason === "lost") return { result: { outcome: "export_lost", pages } };
  // The payment service is blamed only for its own failures; anything else is said as Kassa's.
  const where = error instanceof PaymentsError ? "service" : "kassa";
  return {
    message: exportEndMessage({ kind: "failed", where }, lang),
    result: { outcome: "export_failed", where, pages, err: error },
  };
}

/** The finished file to the asker's messages with Kassa, with its one line; unless the lease was lost. */
async function sendFile(
  run: ExportRun,
  file: ExportFile,
  progress: ProgressMessage,
  scan: KeptRead,
  tally: Tally,
): Promise<Ending> {
  const { request } = run;
  progress.show({ pages: scan.pages, invoices: tally.invoices, writing: true });
  const written = await file.finish();
  const paid = formatAmount(tally.paidRub.toFixed(), "RUB", request.lang);
  try {
    await run.stillOurs();
  } catch {
    written.dispose();
    return { result: { outcome: "export_lost", pages: scan.pages } };
  }
  try {
    await uploadFile(run.client, {
      path: written.path,
      length: written.length,
      channel: run.channel,
      filename: exportFilename(request),
      title: EXPORT_TEXT[request.lang].fileTitle(request.title),
      comment: fileComment(request.lang, {
        title: request.title,
        invoices: tally.invoices,
        paid,
        zone: request.bounds.zone,
        read: scan,
        refunds: refundsNote(tally.refunds),
      }),
    });
  } catch (error) {
    return {
      message: exportEndMessage({ kind: "failed", where: "slack" }, request.lang),
      result: { outcome: "export_failed", where: "slack", pages: scan.pages, err: error },
    };
  } finally {
    written.dispose();
  }
  const format = request.format.toUpperCase();
  return {
    message: exportEndMessage({ kind: "done", title: request.title, format }, request.lang),
    result: { outcome: "export_sent", invoices: tally.invoices, bytes: written.length, pages: scan.pages },
  };
}
