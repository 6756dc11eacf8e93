import { randomBytes } from "node:crypto";
import type { SlackMessage } from "../../blocks/message.js";
import { reportProgressMessage } from "../../blocks/report-progress.js";
import type { Lang } from "../../i18n/lang.js";
import type { Period } from "../../reports/periods.js";
import { type Report, ReportCounter } from "../../reports/report.js";
import type { ListenerDeps } from "../deps.js";

/** History pages a report reads at most in one go (100 invoices each); past it, it says where it stopped. */
export const REPORT_MAX_PAGES = 2000;
/** A report still reading after this long shows its progress, with Cancel; then at most every PROGRESS_EVERY_MS. */
export const PROGRESS_AFTER_MS = 3000;
const PROGRESS_EVERY_MS = 10_000;
/** response_url takes 5 messages: the progress uses at most 3, the report (or its failure) the 4th. */
const MAX_PROGRESS_MESSAGES = 3;

export type ReportRead = { report: Report } | { cancelledBy: string };

/**
 * Counts the period and the one before from the register's kept history (brought up to date within
 * the register's budget, in the background lane). A read still going after a few seconds shows its
 * progress to the asker (pages and invoices so far) with Cancel, which stops it after its page;
 * what was read is kept either way.
 */
export async function readReport(
  deps: Pick<ListenerDeps, "history" | "cancels">,
  input: {
    teamId: string;
    /** The register whose history is read (main's, the team id, when left out). */
    registerKey?: string | undefined;
    userId: string;
    bounds: Period;
    title: string;
    lang: Lang;
  },
  send: (message: SlackMessage) => Promise<unknown>,
): Promise<ReportRead> {
  const counter = new ReportCounter(input.bounds);
  const jobId = randomBytes(8).toString("hex");
  const controller = new AbortController();
  const startedAt = Date.now();
  let shown = 0;
  let shownAt = 0;
  let sending: Promise<unknown> = Promise.resolve();
  const onProgress = (progress: { pages: number; invoices: number }) => {
    void deps.cancels.markedBy(jobId).then(
      (by) => {
        if (by && !controller.signal.aborted) controller.abort(`cancelled:${by}`);
      },
      () => {},
    );
    const now = Date.now();
    if (
      now - startedAt < PROGRESS_AFTER_MS ||
      now - shownAt < PROGRESS_EVERY_MS ||
      shown >= MAX_PROGRESS_MESSAGES
    )
      return;
    shown += 1;
    shownAt = now;
    const message = reportProgressMessage({
      teamId: input.teamId,
      jobId,
      title: input.title,
      lang: input.lang,
      ...progress,
    });
    sending = sending.then(() => send(message)).catch(() => undefined);
  };
  try {
    const read = await deps.history.read(
      input.registerKey ?? input.teamId,
      { since: input.bounds.previous.from, until: input.bounds.to },
      (entry) => counter.add(entry),
      { maxPages: REPORT_MAX_PAGES, signal: controller.signal, onProgress },
    );
    counter.partial = read.partial;
    counter.unreadable = read.unreadable;
    counter.daysLeftOut = read.daysLeftOut;
  } catch (error) {
    const reason = controller.signal.aborted ? String(controller.signal.reason) : "";
    if (!reason.startsWith("cancelled:")) throw error;
    await sending;
    return { cancelledBy: reason.slice("cancelled:".length) };
  }
  // The report replaces the progress message once its last edit went out.
  await sending;
  return { report: counter.finish() };
}
