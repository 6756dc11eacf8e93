import type { webApi } from "@slack/bolt";
import type { SlackMessage } from "../../blocks/message.js";
import { buildPeriodReport, reportTitle } from "../../blocks/period-report.js";
import { invoiceUsageMessage } from "../../blocks/replies.js";
import { reportCancelledMessage } from "../../blocks/report-progress.js";
import { reportChartPng } from "../../charts/report-chart.js";
import { isTimeZone } from "../../config/values.js";
import type { Lang } from "../../i18n/lang.js";
import { REPORT_TEXT } from "../../i18n/report.js";
import { paidRefunds } from "../../payouts/refund-record.js";
import { type PeriodName, periodBounds } from "../../reports/periods.js";
import { refundsIn } from "../../reports/refunds.js";
import type { Report } from "../../reports/report.js";
import { directChannel, UploadError, type UploadFailure, uploadFile } from "../../slack/files.js";
import type { Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { checkMoneyReader, type ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, withRegisterFooter } from "../workspace/register.js";
import { langFor } from "../workspace/settings.js";
import { readReport } from "./report-read.js";

/** How long the reader's timezone may take to learn (users.info); past it, the service's zone. */
const TZ_BUDGET_MS = 1000;

/** The reader's own timezone from Slack, or undefined (then the payment service's zone is used). */
export async function readerZone(client: webApi.WebClient, userId: string): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const info = await Promise.race([
      client.users.info({ user: userId }),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), TZ_BUDGET_MS);
      }),
    ]);
    const tz = info?.user?.tz;
    return typeof tz === "string" && isTimeZone(tz) ? tz : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/invoice summary [today|yesterday|7d|30d|YYYY-MM]`: the period report, in the reader's timezone,
 * counted from the history; the largest payments only for those who may see the balance.
 */
export async function invoiceSummaryReply(
  deps: Pick<
    ListenerDeps,
    "payments" | "now" | "serviceTimeZone" | "stores" | "history" | "cancels" | "payouts"
  > &
    ManagerDeps,
  client: webApi.WebClient,
  who: { teamId: string; userId: string; enterpriseId?: string | undefined },
  period: PeriodName,
  /** The asker's response_url: the progress of a long read goes there before the report. */
  send: (message: SlackMessage) => Promise<unknown>,
  /** The register reported on; main's when left out. */
  register?: ChosenRegister,
): Promise<Produced & { reply: SlackMessage }> {
  const lang = await langFor(deps, who.teamId);
  const zone = (await readerZone(client, who.userId)) ?? deps.serviceTimeZone;
  const bounds = periodBounds(period, deps.now(), zone);
  if (!bounds)
    return { reply: invoiceUsageMessage("summary_future", period, lang), log: { outcome: "usage" } };
  const title = reportTitle(period, lang);
  const registerKey = register?.key ?? who.teamId;
  const read = await readReport(
    deps,
    { teamId: who.teamId, registerKey, userId: who.userId, bounds, title, lang },
    send,
  );
  if ("cancelledBy" in read)
    return { reply: reportCancelledMessage(read.cancelledBy, lang), log: { outcome: "report_cancelled" } };
  // Refunds paid out in the period, shown apart from the takings (never netted); none when unread.
  const paid = await paidRefunds(deps.payouts, registerKey).catch(() => undefined);
  const report = paid ? { ...read.report, refunds: refundsIn(paid, read.report) } : read.report;
  const [reader, methodNames, chart] = await Promise.all([
    checkMoneyReader(deps, client, who),
    deps.payments.methodNamesWithin(registerKey),
    sendChart(client, who.userId, report, title, lang),
  ]);
  const t = REPORT_TEXT[lang];
  const built = buildPeriodReport(report, {
    teamId: who.teamId,
    register: register?.several ? register.name : undefined,
    fetchedAt: deps.now(),
    audience: "asker",
    lang,
    methodNames,
    showLargest: reader.allowed,
    chartNote:
      "fileId" in chart
        ? t.chartInMessages
        : chart.failure === "missing_scope"
          ? t.chartNeedsScope
          : t.chartFailed,
    ...("fileId" in chart
      ? { chart: { type: "image", slack_file: { id: chart.fileId }, alt_text: t.chartAlt(title) } }
      : {}),
  });
  const reply = register ? withRegisterFooter(built, register, lang) : built;
  return {
    reply,
    log: {
      outcome: "ok",
      upstreamStatus: 200,
      invoices: report.current.created + report.test.created,
      chart: "fileId" in chart ? "sent" : chart.failure,
    },
  };
}

/**
 * The report's chart, rendered here and uploaded to the asker's messages with Kassa (an ephemeral
 * reply can only show a file its reader may open); its id for the reply's image. Never fails the
 * report: without `files:write` / `im:write`, or with Slack failing, the figures go out alone.
 */
async function sendChart(
  client: webApi.WebClient,
  userId: string,
  report: Report,
  title: string,
  lang: Lang,
): Promise<{ fileId: string } | { failure: UploadFailure }> {
  try {
    const png = await reportChartPng(report, title, lang);
    const channel = await directChannel(client, userId);
    const fileId = await uploadFile(client, {
      bytes: png,
      channel,
      filename: `kassa-chart-${report.period}.png`,
      title: REPORT_TEXT[lang].chartComment(title),
      altText: REPORT_TEXT[lang].chartAlt(title),
    });
    return { fileId };
  } catch (error) {
    return { failure: error instanceof UploadError ? error.failure : "failed" };
  }
}
