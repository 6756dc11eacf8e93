import type { webApi } from "@slack/bolt";
import { fileComment } from "../blocks/export.js";
import { formatAmount } from "../blocks/format.js";
import { buildPeriodReport, reportTitle } from "../blocks/period-report.js";
import { withRegisterLine } from "../blocks/registers.js";
import { unpaidDigestBlock } from "../blocks/unpaid.js";
import { reportChartPng } from "../charts/report-chart.js";
import { exportRow } from "../exports/columns.js";
import { exportFile } from "../exports/file.js";
import { type ExportRefunds, exportRefunds, refundedOf, refundsNote } from "../exports/refunds.js";
import { exportFilename } from "../exports/run.js";
import type { KeptHistory } from "../history/kept.js";
import { EXPORT_TEXT } from "../i18n/export.js";
import type { Lang } from "../i18n/lang.js";
import { REPORT_TEXT } from "../i18n/report.js";
import type { UnpaidTally } from "../links/unpaid.js";
import { Big } from "../payments/decimal.js";
import { TEST_METHOD } from "../payments/model.js";
import type { Period } from "../reports/periods.js";
import type { PaidRefund } from "../reports/refunds.js";
import { ReportCounter, rubOf } from "../reports/report.js";
import { directChannel, uploadFile } from "../slack/files.js";
import { registerOfKey } from "../store/registers.js";
import type { Logger } from "../util/logger.js";
import type { PeriodDigest } from "./model.js";

/** Pages a digest's read takes at most (as a report's). */
const DIGEST_MAX_PAGES = 2000;

export type DigestPost = {
  /** The register's key (main's: the team id). */
  team: string;
  /** The register's name, where its workspace has several: the report, its chart and its CSV say it. */
  register?: string | undefined;
  digest: PeriodDigest;
  bounds: Period;
  lang: Lang;
  /** The workspace lets everyone see the balance: the largest payments and the CSV go in the channel. */
  everyone: boolean;
  now: Date;
};

/**
 * A weekly or monthly digest in its channel: the period's report (as /invoice summary, for the
 * channel), its chart, and for a month every invoice as CSV (in the channel when everyone may see
 * the balance, else to the admin who set the digest up). The report's post failing fails it all
 * (tried again at the next pass); the chart and the CSV failing are logged, the figures stand.
 */
export async function postDigest(
  deps: {
    history: KeptHistory;
    logger: Logger;
    unpaid?: ((registerKey: string, from: number) => Promise<UnpaidTally>) | undefined;
    refunds?: ((registerKey: string) => Promise<readonly PaidRefund[]>) | undefined;
  },
  slack: webApi.WebClient,
  post: DigestPost,
): Promise<void> {
  const { team, digest, bounds, lang } = post;
  const counted = await countPeriod(deps.history, team, bounds);
  // Refunds paid out in the period: a line of their own, never taken off the takings (issue 52).
  const { refunds: readRefunds } = deps;
  const refunds = await exportRefunds(readRefunds && (() => readRefunds(team)), bounds);
  const report = refunds.unread ? counted : { ...counted, refunds: refunds.inPeriod };
  const titled = reportTitle(bounds.period, lang);
  const title = post.register === undefined ? titled : `${post.register} · ${titled}`;
  const t = REPORT_TEXT[lang];
  const monthly = digest.cadence === "monthly";
  const built = buildPeriodReport(report, {
    teamId: registerOfKey(team).team,
    register: post.register,
    fetchedAt: post.now,
    audience: { digest: digest.cadence },
    lang,
    showLargest: post.everyone,
    ...(monthly ? { chartNote: post.everyone ? t.csvHere : t.csvTo(`<@${digest.by}>`) } : {}),
  });
  const message = await withUnpaidLine(deps, withRegisterLine(built, post.register, lang), post);
  await slack.chat.postMessage({ channel: digest.channel, text: message.text, blocks: message.blocks });
  const log = { team, channel: digest.channel, cadence: digest.cadence, period: bounds.period };
  try {
    await uploadFile(slack, {
      bytes: await reportChartPng(report, title, lang),
      channel: digest.channel,
      filename: `kassa-chart-${bounds.period}.png`,
      title: t.chartComment(title),
      altText: t.chartAlt(title),
    });
  } catch (error) {
    deps.logger.warn({ ...log, err: error, outcome: "digest_chart_failed" }, "digest chart not sent");
  }
  if (!monthly) return;
  try {
    await sendMonthCsv(deps, slack, post, { title, refunds });
  } catch (error) {
    deps.logger.warn({ ...log, err: error, outcome: "digest_csv_failed" }, "digest CSV not sent");
  }
}

/**
 * The line on the payment links Kassa made since the period began that still wait for payment, at
 * the end (Block Kit's 50 blocks allowing); a failed count is logged and leaves the line out.
 */
async function withUnpaidLine(
  deps: Parameters<typeof postDigest>[0],
  message: ReturnType<typeof withRegisterLine>,
  post: DigestPost,
): Promise<ReturnType<typeof withRegisterLine>> {
  if (!deps.unpaid || message.blocks.length >= 50) return message;
  try {
    const line = unpaidDigestBlock(await deps.unpaid(post.team, post.bounds.from * 1000), post.lang);
    return line ? { ...message, blocks: [...message.blocks, line] } : message;
  } catch (error) {
    deps.logger.warn({ team: post.team, err: error }, "digest: unpaid payment links not counted");
    return message;
  }
}

/** The period's report, counted from the register's kept history (and the period before, to compare). */
async function countPeriod(history: KeptHistory, team: string, bounds: DigestPost["bounds"]) {
  const counter = new ReportCounter(bounds);
  const read = await history.read(
    team,
    { since: bounds.previous.from, until: bounds.to },
    (entry) => counter.add(entry),
    { maxPages: DIGEST_MAX_PAGES },
  );
  counter.partial = read.partial;
  counter.unreadable = read.unreadable;
  counter.daysLeftOut = read.daysLeftOut;
  return counter.finish();
}

async function sendMonthCsv(
  deps: { history: KeptHistory },
  slack: webApi.WebClient,
  post: DigestPost,
  { title, refunds }: { title: string; refunds: ExportRefunds },
): Promise<void> {
  const t = EXPORT_TEXT[post.lang];
  const file = exportFile("csv", { sheetName: t.sheetName, zone: post.bounds.zone });
  let invoices = 0;
  let paid = new Big(0);
  // The record was just brought up to date by the report's read: this reads no page.
  const read = await deps.history.read(
    post.team,
    { since: post.bounds.from, until: post.bounds.to },
    (entry) => {
      invoices += 1;
      file.add(exportRow(entry, refundedOf(refunds, entry.id)));
      const rub = entry.state === "payed" && entry.method !== TEST_METHOD ? rubOf(entry) : null;
      if (rub !== null) paid = paid.plus(rub);
    },
    { maxPages: DIGEST_MAX_PAGES },
  );
  const channel = post.everyone ? post.digest.channel : await directChannel(slack, post.digest.by);
  const written = await file.finish();
  try {
    await uploadFile(slack, {
      path: written.path,
      length: written.length,
      channel,
      filename: exportFilename({ bounds: post.bounds, format: "csv" }),
      title: t.fileTitle(title),
      comment: fileComment(post.lang, {
        title,
        invoices,
        paid: formatAmount(paid.toFixed(), "RUB", post.lang),
        zone: post.bounds.zone,
        read,
        refunds: refundsNote(refunds),
      }),
    });
  } finally {
    written.dispose();
  }
}
