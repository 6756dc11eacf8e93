import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { counted } from "../i18n/plural.js";
import { dayList, dayName, monthName, REPORT_TEXT } from "../i18n/report.js";
import { isMonth, isWeek, type PeriodName } from "../reports/periods.js";
import { changePercent, type Report, type Tally } from "../reports/report.js";
import { invoiceButton } from "./button-values.js";
import { formatAmount, formatDecimal, formatMoney, slackDateFromEpoch } from "./format.js";
import { INVOICE_ACTIONS } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";
import { refundReportField } from "./refund-lines.js";

/** "Invoices in the last 30 days", "Счета за октябрь 2026 г.". */
export function reportTitle(period: PeriodName, lang: Lang): string {
  const t = REPORT_TEXT[lang];
  if (isMonth(period)) return t.monthTitle(monthName(lang, period));
  if (isWeek(period)) return t.weekTitle(dayName(lang, period.slice(5)));
  return t.titles[period];
}

/** "+12.5 %", "-3,1 %": the exact change, one decimal, as the language writes it. */
export function formatChange(percent: string, lang: Lang): string {
  const sign = percent.startsWith("-") ? "-" : "+";
  return `${sign}${formatDecimal(percent.replace(/^-/, ""), lang)} %`;
}

/** The paid share, one decimal, never a float artefact: 2 of 3 is 66.7 % (66,7 % in Russian). */
function share(paid: number, created: number, lang: Lang): string {
  if (created === 0) return "—";
  const tenths = Math.round((paid * 1000) / created);
  const text = `${Math.floor(tenths / 10)}${tenths % 10 === 0 ? "" : `.${tenths % 10}`}`;
  return `${formatDecimal(text, lang)} %`;
}

function changeLine(now: string, before: string, beforeText: string, lang: Lang): string {
  const t = REPORT_TEXT[lang];
  const percent = changePercent(now, before);
  if (percent === null) return now === "0" ? t.same(beforeText) : t.noneBefore;
  if (percent === "0") return t.same(beforeText);
  return t.change(formatChange(percent, lang), beforeText);
}

function field(label: string, value: string): types.MrkdwnElement {
  return { type: "mrkdwn", text: truncate(`*${label}*\n${value}`, LIMITS.fieldText) };
}

function figures(report: Report, lang: Lang): types.SectionBlock {
  const t = REPORT_TEXT[lang];
  const invoices = (count: number) => counted(lang, count, t.invoices);
  const rub = (tally: Tally) => {
    const total = formatAmount(tally.paidRub, "RUB", lang);
    return tally.unpriced > 0 ? t.withoutRub(total, invoices(tally.unpriced)) : total;
  };
  const { current, earlier: previous } = report;
  const count = (now: number, before: number) =>
    changeLine(String(now), String(before), formatDecimal(String(before), lang), lang);
  return {
    type: "section",
    fields: [
      field(t.created, `${invoices(current.created)}\n${count(current.created, previous.created)}`),
      field(
        t.paid,
        `${invoices(current.paid)} (${share(current.paid, current.created, lang)})\n${count(current.paid, previous.paid)}`,
      ),
      field(
        t.paidTotal,
        `${rub(current)}\n${changeLine(current.paidRub, previous.paidRub, rub(previous), lang)}`,
      ),
      field(
        t.tests,
        report.test.created === 0 ? t.testsNone : t.testsCounts(report.test.created, report.test.paid),
      ),
      // Refunds paid out in the period: on a field of their own, never taken off the takings.
      ...(refundReportField(report.refunds, lang) ?? []),
    ],
  };
}

function largest(
  report: Report,
  card: { teamId: string; register?: string | undefined },
  lang: Lang,
  names: ReadonlyMap<string, string>,
) {
  const t = REPORT_TEXT[lang];
  const blocks: types.KnownBlock[] = [
    {
      type: "section",
      text: { type: "mrkdwn", text: `*${t.largest}*${report.top.length ? "" : `\n${t.largestNone}`}` },
    },
  ];
  report.top.forEach((invoice, index) => {
    const amount = invoice.amount
      ? formatMoney(invoice.amount, lang)
      : formatAmount(invoice.rub, "RUB", lang);
    const method = invoice.method ? methodName(invoice.method, names) : t.noMethod;
    blocks.push({
      type: "section",
      text: {
        type: "mrkdwn",
        text: truncate(
          `${index + 1}. ${inlineCode(truncate(invoice.id, 100))} *${escapeMrkdwn(amount)}* · ${method}`,
          LIMITS.sectionText,
        ),
      },
      accessory: {
        type: "button",
        action_id: INVOICE_ACTIONS.open,
        text: { type: "plain_text", text: t.open },
        value: invoiceButton.write({
          t: card.teamId,
          id: invoice.id,
          s: "payed",
          ...(card.register === undefined ? {} : { r: card.register }),
        }),
      },
    });
  });
  return blocks;
}

/** "Card RUB P2P `CARDRUBP2P`" when the method list names it, else the code. */
function methodName(code: string, names: ReadonlyMap<string, string>): string {
  const name = names.get(code);
  return name ? `${escapeMrkdwn(truncate(name, 80))} ${inlineCode(code)}` : inlineCode(code);
}

function byMethod(report: Report, lang: Lang, names: ReadonlyMap<string, string>): types.SectionBlock | null {
  if (report.methods.length === 0) return null;
  const t = REPORT_TEXT[lang];
  const lines = report.methods.map((total) =>
    t.methodLine(
      total.method ? methodName(total.method, names) : t.noMethod,
      formatAmount(total.rub, "RUB", lang),
      counted(lang, total.paid, t.invoices),
    ),
  );
  const other = report.otherMethods;
  if (other)
    lines.push(
      t.methodLine(
        t.other(other.methods),
        formatAmount(other.rub, "RUB", lang),
        counted(lang, other.paid, t.invoices),
      ),
    );
  return {
    type: "section",
    text: { type: "mrkdwn", text: truncate(`*${t.byMethod}*\n${lines.join("\n")}`, LIMITS.sectionText) },
  };
}

/**
 * The period report: created, paid and the paid total with their change on the same length of time
 * just before, test payments apart, the five largest paid invoices (each with Open) and the paid
 * total per method. `audience` asker: a reply only they see; channel: a digest posted in a channel.
 */
export function buildPeriodReport(
  report: Report,
  input: {
    teamId: string;
    /** The register read, where the workspace has several: each Open reads the invoice there. */
    register?: string | undefined;
    fetchedAt: Date;
    audience: "asker" | { digest: "weekly" | "monthly" };
    lang?: Lang;
    methodNames?: ReadonlyMap<string, string>;
    /** A line about the chart (not sent, or sent elsewhere); the image itself is a separate block. */
    chartNote?: string;
    chart?: types.ImageBlock;
    /** false: the reader may not see single invoices' money; the list says who may. */
    showLargest?: boolean;
  },
): SlackMessage {
  const lang = input.lang ?? "en";
  const t = REPORT_TEXT[lang];
  const names = input.methodNames ?? new Map<string, string>();
  const title = reportTitle(report.period, lang);
  const blocks: types.KnownBlock[] = [
    { type: "header", text: { type: "plain_text", text: title } },
    figures(report, lang),
  ];
  if (input.chart) blocks.push(input.chart);
  if (input.showLargest === false)
    blocks.push({ type: "section", text: { type: "mrkdwn", text: `*${t.largest}*\n${t.largestHidden}` } });
  else blocks.push(...largest(report, input, lang, names));
  const methods = byMethod(report, lang, names);
  if (methods) blocks.push(methods);
  const readAt = Math.floor(input.fetchedAt.getTime() / 1000);
  // A span ending now ends a second after the read (so this second counts): say "now", not that.
  const end = (to: number) => slackDateFromEpoch(to > readAt ? readAt : to, lang);
  const notes = [
    t.span(
      safeText(report.zone, 60),
      slackDateFromEpoch(report.from, lang),
      end(report.to),
      slackDateFromEpoch(readAt, lang),
    ),
    t.comparedWith(
      slackDateFromEpoch(report.previous.from, lang),
      slackDateFromEpoch(report.previous.to, lang),
    ),
    input.audience === "asker" ? t.onlyYou : t.digest(input.audience.digest),
  ];
  if (input.chartNote) notes.push(input.chartNote);
  if (report.partial) notes.unshift(t.partial);
  if (report.unreadable > 0) notes.unshift(t.unreadable(counted(lang, report.unreadable, t.entries)));
  if (report.daysLeftOut.length > 0) notes.unshift(t.daysLeftOut(dayList(report.daysLeftOut)));
  blocks.push({
    type: "context",
    elements: notes.map((text) => ({ type: "mrkdwn" as const, text: truncate(text, LIMITS.sectionText) })),
  });
  const total = formatAmount(report.current.paidRub, "RUB", lang);
  return {
    response_type: input.audience === "asker" ? "ephemeral" : "in_channel",
    text: truncate(
      t.fallback(title, report.current.created, report.current.paid, total),
      LIMITS.fallbackText,
    ),
    blocks,
  };
}
