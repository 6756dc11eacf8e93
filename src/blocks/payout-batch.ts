import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { PAYOUT_BATCH_TEXT } from "../i18n/payout-batch.js";
import { PAYOUT_CARD_TEXT } from "../i18n/payout-card.js";
import type { MethodTotals } from "../payout-batches/checks.js";
import type { Batch, BatchCard, BatchRow } from "../payout-batches/model.js";
import type { PayoutRequest } from "../payouts/request-model.js";
import { formatAmount } from "./format.js";
import { inlineCode, safeText } from "./mrkdwn.js";
import { changedWords, stoppedWords } from "./payout-card.js";

// A batch's card in the approval channel (issue 52, item 3): its rows (each one's figures, its
// refusal in the service's words, or how far it got), per method what arrives, the fees and what
// leaves the balance against that balance, the rule and the approvals, and the buttons its state
// allows. Everything it says comes from the batch and its rows' requests as stored.

/** A row's payout request as it stands (undefined: not read, or forgotten). */
export type RowRequests = ReadonlyMap<string, PayoutRequest | undefined>;

/** The batch as the card shows it: its figures worked out by the caller (payout-batches). */
export type BatchView = {
  batch: Batch;
  card: Pick<BatchCard, "register" | "several">;
  rows: RowRequests;
  totals: MethodTotals[];
  total: string;
};

type RowStateWord = "waiting" | "approved" | "sending" | "sent" | "paid" | "failed" | "not_sent";

/** Where a row's request is, as the card says it. */
export function rowStateOf(request: PayoutRequest | undefined): RowStateWord {
  switch (request?.status) {
    case undefined:
    case "waiting":
      return "waiting";
    case "approved":
      return "approved";
    case "submitting":
      return "sending";
    case "submitted":
      return "sent";
    case "ended":
      return request.service?.state === "payed" ? "paid" : "failed";
    default:
      return "not_sent";
  }
}

/** How far the rows got: sent (reached the service), paid, failed, not sent (ended without a send). */
export function progressOf(batch: Batch, rows: RowRequests) {
  const states = batch.rows.flatMap((row) =>
    row.payout && !row.dropped ? [rowStateOf(rows.get(row.payout))] : [],
  );
  const count = (...words: RowStateWord[]) => states.filter((state) => words.includes(state)).length;
  return {
    rows: states.length,
    sent: count("sent", "paid", "failed"),
    paid: count("paid"),
    failed: count("failed"),
    notSent: count("not_sent"),
  };
}

const shortWallet = (wallet: string) => {
  const plain = wallet.replace(/\s+/g, "");
  return plain.length <= 12 ? plain : `${plain.slice(0, 4)}…${plain.slice(-4)}`;
};

/** Why a row's payout did not go or did not arrive: the service's words, or why Kassa stopped it. */
function rowWhy(request: PayoutRequest, lang: Lang): string | undefined {
  const said =
    request.refusal?.join("; ") ??
    (request.status === "ended" && request.service?.state !== "payed" ? request.service?.message : null);
  if (said) return safeText(said, 200);
  if (request.status === "stopped") return stoppedWords(request, lang);
  if (request.status === "changed") return PAYOUT_CARD_TEXT[lang].changedWhat(changedWords(request, lang));
  return undefined;
}

/**
 * A row without a quote: its amount as pasted, in its method's currency as the service's balance
 * answer tied it; nothing when that is not known (an amount is never shown without its currency).
 */
function pastedAmount(row: BatchRow, batch: Batch, lang: Lang): string {
  const currency = batch.balances.find((one) => one.method === row.method)?.currency;
  return currency ? ` · ${formatAmount(row.amount, currency, lang)}` : "";
}

function rowText(row: BatchRow, batch: Batch, rows: RowRequests, lang: Lang): string {
  const t = PAYOUT_BATCH_TEXT[lang];
  const to = row.recipient
    ? `*${safeText(row.recipient.label, 80)}* _(${t.trusted})_`
    : row.label && !row.method
      ? `*${safeText(row.label, 80)}*`
      : `${inlineCode(row.method)} ${inlineCode(shortWallet(row.wallet))}`;
  const ref = row.reference ? ` · ${t.referenceLine(safeText(row.reference, 80))}` : "";
  if (row.refusal) {
    const detail = safeText(row.refusal.words.join("; "), 300);
    const why = t.refused[row.refusal.kind](detail);
    const line = `${row.row}. ${to}${pastedAmount(row, batch, lang)}${ref}`;
    return row.dropped
      ? `~${line}~ _${t.dropped(`<@${row.dropped.by}>`)}_`
      : `:no_entry_sign: ${line} — ${why}`;
  }
  const quote = row.quote;
  if (!quote) return `${row.row}. ${to}${pastedAmount(row, batch, lang)}${ref}`;
  const money = (value: string) => formatAmount(value, quote.currency, lang);
  const fee = `${money(quote.fee)} ${t.feeFrom[row.feeFrom]}`;
  const line = t.rowLine(row.row, to, money(quote.amount), fee, money(quote.receives));
  const request = row.payout ? rows.get(row.payout) : undefined;
  const state = t.rowState[rowStateOf(request)];
  const why = request ? rowWhy(request, lang) : undefined;
  return `${line}${ref}${state ? ` · _${state}_` : ""}${why ? ` (${why})` : ""}`;
}

/** The rows' lines packed into sections (each within Slack's 3000 characters; no row is cut). */
export function rowSections(batch: Batch, rows: RowRequests, lang: Lang): types.KnownBlock[] {
  const sections: string[] = [];
  for (const line of batch.rows.map((row) => rowText(row, batch, rows, lang))) {
    const last = sections.at(-1);
    if (last !== undefined && last.length + 1 + line.length <= SECTION_MAX)
      sections[sections.length - 1] = `${last}\n${line}`;
    else sections.push(line.slice(0, SECTION_MAX));
  }
  return sections.map((text): types.KnownBlock => ({ type: "section", text: { type: "mrkdwn", text } }));
}

/** A section's text at most (Slack's limit is 3000). */
const SECTION_MAX = 2900;

export function methodBlocks(totals: MethodTotals[], lang: Lang): types.KnownBlock[] {
  if (totals.length === 0) return [];
  const t = PAYOUT_BATCH_TEXT[lang];
  const money = (value: string, currency: string) => formatAmount(value, currency, lang);
  const lines = totals.map((one) =>
    [
      t.methodLine(
        inlineCode(one.method),
        one.rows,
        money(one.receives, one.currency),
        money(one.fee, one.currency),
        money(one.leaves, one.currency),
      ),
      t.balanceIs(one.balance === undefined ? t.balanceUnknown : money(one.balance, one.currency)),
    ].join(""),
  );
  const shorts = totals
    .filter((one) => one.short)
    .map((one) =>
      t.short(
        inlineCode(one.method),
        money(one.balance ?? "0", one.currency),
        money(one.leaves, one.currency),
      ),
    );
  return [
    {
      type: "section",
      text: { type: "mrkdwn", text: `*${t.perMethod}*\n${lines.join("\n")}`.slice(0, 3000) },
    },
    ...shorts
      .slice(0, 5)
      .map((text): types.KnownBlock => ({ type: "section", text: { type: "mrkdwn", text } })),
  ];
}

/** What an approver types: the rows and the total, as plain digits (`3/3500.5`). */
export function typedFigures(rows: number, total: string): string {
  return `${rows}/${total}`;
}
