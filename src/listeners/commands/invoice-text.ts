import { type AuditPeriod, auditPeriodOf } from "../../audit/periods.js";
import { CREATE_CURRENCIES } from "../../blocks/invoice-create.js";
import type { ListFilter } from "../../blocks/invoice-list.js";
import type { ExportFormat } from "../../exports/file.js";
import type { UsageReason } from "../../i18n/help.js";
import { parseLang } from "../../i18n/lang.js";
import { INVOICE_ID_PATTERN } from "../../payments/payment-link.js";
import { monthPeriod, type PeriodName } from "../../reports/periods.js";
import { parseSubscribeWords, type SubscribeWords } from "./feed-words.js";
import { type CreatePrefill, parseCreateText } from "./invoice-new-text.js";

export { INVOICE_ID_PATTERN };

/** What the text after `/invoice` asks for. */
export type AdminAction =
  | "connect"
  | "disconnect"
  | "status"
  | "rotate-callback"
  | "unsubscribe"
  | "language-en"
  | "language-ru";

export type InvoiceRequest =
  | { kind: "help" }
  | { kind: "admin"; action: AdminAction }
  /** `/invoice subscribe [paid|failures|all] [over 10000]`; null words: the feed as it is (paid when new). */
  | { kind: "subscribe"; words: SubscribeWords | null }
  /** `/invoice feed`: the channel's feed form. */
  | { kind: "feed" }
  | { kind: "lookup"; invoiceId: string }
  | { kind: "create"; prefill: CreatePrefill }
  | { kind: "list"; filter: ListFilter }
  | { kind: "summary"; period: PeriodName }
  /** `/invoice unpaid [period] [customer]` (RU `неоплаченные`): the links Kassa made still waiting for payment. */
  | { kind: "unpaid"; period: PeriodName; customer: string | null }
  | { kind: "export"; period: PeriodName; format: ExportFormat }
  /** `/invoice digest HH:MM [weekly|monthly]` (at) or `/invoice digest off [weekly|monthly]` (null). */
  | { kind: "digest"; at: string | null; cadence: "daily" | "weekly" | "monthly" }
  /** `/invoice audit [today|7d|30d] [what]` (admins): the audit trail; `/invoice audit verify`: its chain. */
  | { kind: "audit"; op: AuditOp; period: AuditPeriod; what: string | null; person: string | null }
  /** `/invoice use [NAME]`: which register the channel uses, or (admins) make NAME its register. */
  | { kind: "use"; name: string | null }
  /** `/invoice reissue ID|LINK` (RU `перевыпустить`): a payment link made again (issue 51). */
  | { kind: "reissue"; invoiceId: string }
  /** `/invoice recurring`: the register's repeating invoices, with Pause, Resume and Delete. */
  | { kind: "recurring" }
  | { kind: "invalid"; reason: UsageReason; input: string };

export { type CreatePrefill, parseCreateText } from "./invoice-new-text.js";
export type { UsageReason };

/**
 * Reads what the text after `/invoice` asks for: a word that names a command, else an invoice id or
 * a payment page link.
 */
export function parseInvoiceText(text: string): InvoiceRequest {
  const trimmed = text.trim();
  if (trimmed === "" || /^(help|\?|-h|--help)$/i.test(trimmed)) return { kind: "help" };
  const create = /^new(?:\s+([\s\S]*))?$/i.exec(trimmed);
  const prefill = create && parseCreateText(create[1] ?? "", CREATE_CURRENCIES);
  if (prefill?.repeat === "invalid") return { kind: "invalid", reason: "repeat_arg", input: trimmed };
  if (prefill) return { kind: "create", prefill };
  if (/^(recurring|повторяющиеся)$/i.test(trimmed)) return { kind: "recurring" };
  const reissue = /^(?:reissue|re-issue|перевыпустить)(?:\s+([\s\S]*))?$/i.exec(trimmed);
  if (reissue) {
    const target = lookupRequest(reissue[1]?.trim() ?? "");
    return target.kind === "lookup" ? { kind: "reissue", invoiceId: target.invoiceId } : target;
  }
  return manageRequest(trimmed) ?? feedRequest(trimmed) ?? reportRequest(trimmed) ?? lookupRequest(trimmed);
}

/** connect, disconnect, status, callback rotate, language, use, unsubscribe, audit. */
function manageRequest(trimmed: string): InvoiceRequest | undefined {
  const admin = /^(connect|disconnect|status)$/i.exec(trimmed)?.[1];
  if (admin) return { kind: "admin", action: admin.toLowerCase() as AdminAction };
  if (/^callback\s+rotate$/i.test(trimmed)) return { kind: "admin", action: "rotate-callback" };
  const language = /^language(?:\s+(\S+))?$/i.exec(trimmed);
  if (language) {
    const lang = parseLang(language[1] ?? "");
    if (!lang) return { kind: "invalid", reason: "language_arg", input: trimmed };
    return { kind: "admin", action: lang === "ru" ? "language-ru" : "language-en" };
  }
  const audit = /^audit(?:\s+([\s\S]*))?$/i.exec(trimmed);
  if (audit) return auditRequest(audit[1] ?? "", trimmed);
  const use = /^use(?:\s+(\S+))?$/i.exec(trimmed);
  if (use) return { kind: "use", name: use[1]?.toLowerCase() ?? null };
  if (/^unsubscribe$/i.test(trimmed)) return { kind: "admin", action: "unsubscribe" };
  return undefined;
}

/** subscribe, feed, digest. */
function feedRequest(trimmed: string): InvoiceRequest | undefined {
  const subscribe = /^subscribe(?:\s+([\s\S]*))?$/i.exec(trimmed);
  if (subscribe) {
    const words = parseSubscribeWords(subscribe[1] ?? "");
    if (words === "invalid") return { kind: "invalid", reason: "subscribe_arg", input: trimmed };
    return { kind: "subscribe", words };
  }
  if (/^(feed|лента)$/i.test(trimmed)) return { kind: "feed" };
  const digest = /^digest\s+(off|(\d{1,2}):([0-5]\d))(?:\s+(daily|weekly|monthly))?$/i.exec(trimmed);
  if (digest) {
    const word = digest[4]?.toLowerCase();
    const cadence = word === "weekly" || word === "monthly" ? word : "daily";
    if (digest[1]?.toLowerCase() === "off") return { kind: "digest", at: null, cadence };
    const hour = Number(digest[2]);
    if (hour <= 23) return { kind: "digest", at: `${String(hour).padStart(2, "0")}:${digest[3]}`, cadence };
  }
  if (/^digest\b/i.test(trimmed)) return { kind: "invalid", reason: "digest_arg", input: trimmed };
  return undefined;
}

/** list, summary, export, unpaid. */
function reportRequest(trimmed: string): InvoiceRequest | undefined {
  const unpaid = /^(?:unpaid|неоплаченные)(?:\s+([\s\S]*))?$/i.exec(trimmed);
  if (unpaid) return unpaidRequest(unpaid[1]?.trim() ?? "");
  const list = /^list(?:\s+(paid|notpaid|unpaid|all))?$/i.exec(trimmed);
  if (list) {
    const word = list[1]?.toLowerCase() ?? "all";
    return { kind: "list", filter: word === "unpaid" ? "notpaid" : (word as ListFilter) };
  }
  const summary = /^summary(?:\s+(today|yesterday|7d|week|30d|\d{4}-\d{2}))?$/i.exec(trimmed);
  const period = summary && periodWord(summary[1]);
  if (period) return { kind: "summary", period };
  const exported = /^export((?:\s+\S+){0,2})$/i.exec(trimmed);
  if (exported) {
    const request = exportWords(exported[1]?.trim().split(/\s+/).filter(Boolean) ?? []);
    if (request) return { kind: "export", ...request };
  }
  if (/^export\b/i.test(trimmed)) return { kind: "invalid", reason: "export_arg", input: trimmed };
  if (/^summary\b/i.test(trimmed)) return { kind: "invalid", reason: "summary_arg", input: trimmed };
  if (/^list\b/i.test(trimmed)) return { kind: "invalid", reason: "list_arg", input: trimmed };
  return undefined;
}

/**
 * An invoice id or a payment page link (`https://pay.crystalpay.io/?i=<id>`). Slack wraps links as
 * `<url>` or `<url|label>` when the command escapes its text; both are accepted.
 */
function lookupRequest(trimmed: string): InvoiceRequest {
  // Slack escapes & as &amp; in the text it sends.
  const unwrapped = (/^<([^|>]+)(\|[^>]*)?>$/.exec(trimmed)?.[1] ?? trimmed).replace(/&amp;/g, "&");
  if (/^https?:\/\//i.test(unwrapped)) {
    let id: string | null = null;
    try {
      id = new URL(unwrapped).searchParams.get("i");
    } catch {
      return { kind: "invalid", reason: "link_unreadable", input: trimmed };
    }
    if (id === null) return { kind: "invalid", reason: "link_no_id", input: trimmed };
    if (!INVOICE_ID_PATTERN.test(id)) return { kind: "invalid", reason: "link_bad_id", input: trimmed };
    return { kind: "lookup", invoiceId: id };
  }
  if (/\s/.test(trimmed)) return { kind: "invalid", reason: "spaces", input: trimmed };
  if (!INVOICE_ID_PATTERN.test(trimmed)) return { kind: "invalid", reason: "bad_id", input: trimmed };
  return { kind: "lookup", invoiceId: trimmed };
}

/** `today` (none given), `yesterday`, `7d` (or `week`), `30d` or a month `YYYY-MM`; undefined otherwise. */
function periodWord(word: string | undefined): PeriodName | undefined {
  const lower = word?.toLowerCase() ?? "today";
  if (lower === "week") return "7d";
  if (lower === "today" || lower === "yesterday" || lower === "7d" || lower === "30d") return lower;
  return monthPeriod(lower);
}

/** `[period] [customer]`: 30 days when no period comes first; the customer's name, any case, quotes aside. */
function unpaidRequest(words: string): InvoiceRequest {
  const first = /^(\S+)(?:\s+([\s\S]*))?$/.exec(words);
  const period = first?.[1] ? periodWord(first[1]) : undefined;
  const rest = (period ? (first?.[2] ?? "") : words)
    .trim()
    .replace(/^["“«](.*)["”»]$/, "$1")
    .trim();
  return { kind: "unpaid", period: period ?? "30d", customer: rest === "" ? null : rest.slice(0, 80) };
}

/** `[period] [csv|xlsx]` in either order; CSV and today when not given. */
function exportWords(words: string[]): { period: PeriodName; format: ExportFormat } | undefined {
  let format: ExportFormat | undefined;
  let period: PeriodName | undefined;
  for (const word of words) {
    const lower = word.toLowerCase();
    if (lower === "csv" || lower === "xlsx") {
      if (format) return undefined;
      format = lower;
    } else {
      if (period) return undefined;
      period = periodWord(lower);
      if (!period) return undefined;
    }
  }
  return { period: period ?? "today", format: format ?? "csv" };
}

/**
 * The words after `/invoice audit`: `verify`, `channel` (`off`), `export [period]`, or a period
 * (today, 7d, 30d, YYYY-MM), a person (a mention, as Slack sends it: `<@U123|name>`) and what to
 * show, in any order.
 */
function auditRequest(text: string, input: string): InvoiceRequest {
  const lower = text.toLowerCase().split(/\s+/).filter(Boolean);
  const invalid = { kind: "invalid", reason: "audit_arg", input } as const;
  const op = lower.length <= 2 ? AUDIT_OPS.get(lower.join(" ")) : undefined;
  if (op) return { kind: "audit", op, period: "all", what: null, person: null };
  if (lower[0] === "export") {
    const period = lower.length === 1 ? "30d" : lower.length === 2 ? auditPeriodOf(lower[1]) : undefined;
    return period ? { kind: "audit", op: "export", period, what: null, person: null } : invalid;
  }
  let period: AuditPeriod | undefined;
  let what: string | null = null;
  let person: string | null = null;
  for (const word of lower) {
    const mention = /^<@([uw][a-z0-9]{2,20})(?:\|[^>]*)?>$/.exec(word);
    const asPeriod = auditPeriodOf(word);
    if (asPeriod && period === undefined) period = asPeriod;
    else if (mention?.[1] && person === null) person = mention[1].toUpperCase();
    else if (AUDIT_SUBJECTS.includes(word) && what === null) what = word;
    else return invalid;
  }
  return { kind: "audit", op: "list", period: period ?? "all", what, person };
}

/**
 * What `/invoice audit` does: list entries, verify the chain, send them as files (export), make
 * this channel the audit channel (where the chain's head is posted daily) or stop posting it.
 */
export type AuditOp = "list" | "verify" | "export" | "channel" | "channel_off";
const AUDIT_OPS = new Map<string, AuditOp>([
  ["verify", "verify"],
  ["channel", "channel"],
  ["channel off", "channel_off"],
]);

/** What `/invoice audit` can narrow to: an act's first word (register, feed, payout, ...). */
export const AUDIT_SUBJECTS = [
  "register",
  "settings",
  "feed",
  "digest",
  "callback",
  "invoice",
  "schedule",
  "export",
  "payout",
  "act",
  "app",
  "audit",
];
