import { type AmountUnread, readWrittenAmount } from "../util/rub-amount.js";

// A batch's rows as people paste them from a spreadsheet (issue 52, item 3): one row a line, cells
// separated by tabs (a copy from Excel or Google Sheets), `;` or `,` (a CSV; the first of these the
// text holds decides), a header row or none. A row is a trusted recipient's label, the amount, who
// pays the fee and a reference; or a method and a wallet in the label's place. Nothing is guessed:
// a line that reads neither way is said back with its number.

/** A batch has at most this many rows. */
export const BATCH_ROWS_MAX = 50;
/** Slack's own limit of a text input: 50 rows of about 60 characters. */
export const PASTE_MAX_CHARS = 3000;

export type FeeFrom = "balance" | "amount";

/** One row as pasted: who it goes to (a label, or a method and a wallet), the amount as an exact decimal. */
export type PastedRow = {
  /** Its line in the pasted text (1-based), as people count them. */
  line: number;
  to: { label: string } | { method: string; wallet: string };
  amount: string;
  feeFrom: FeeFrom;
  reference: string;
};

export type RowProblem =
  | { kind: "columns"; line: number }
  | { kind: "amount"; line: number; why: AmountUnread }
  | { kind: "fee"; line: number; written: string }
  | { kind: "too_long"; line: number; field: "label" | "wallet" | "reference" }
  | { kind: "too_many"; rows: number }
  | { kind: "empty" };

export type PastedBatch = { ok: true; rows: PastedRow[] } | { ok: false; problems: RowProblem[] };

/** Who pays the fee, in the words a sheet may have: the sender (from the balance) unless the recipient. */
const FEE_WORDS: Record<string, FeeFrom> = {
  "": "balance",
  balance: "balance",
  sender: "balance",
  us: "balance",
  we: "balance",
  merchant: "balance",
  "on top": "balance",
  баланс: "balance",
  "с баланса": "balance",
  отправитель: "balance",
  мы: "balance",
  amount: "amount",
  recipient: "amount",
  payee: "amount",
  "from amount": "amount",
  сумма: "amount",
  "из суммы": "amount",
  получатель: "amount",
};

function feeOf(cell: string | undefined): FeeFrom | undefined {
  return FEE_WORDS[(cell ?? "").trim().toLowerCase()];
}

const METHOD = /^[A-Za-z0-9_]{2,40}$/;

/** The separator the text uses: a tab, else `;`, else `,`. */
function separatorOf(text: string): string {
  if (text.includes("\t")) return "\t";
  return text.includes(";") ? ";" : ",";
}

/** A CSV cell may be quoted ("a, b"): the quotes taken off, doubled quotes made single. */
function cellsOf(line: string, separator: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted && char === '"' && line[index + 1] === '"') {
      cell += '"';
      index += 1;
    } else if (char === '"' && (quoted || cell.trim() === "")) quoted = !quoted;
    else if (char === separator && !quoted) {
      cells.push(cell.trim());
      cell = "";
    } else cell += char;
  }
  cells.push(cell.trim());
  while (cells.length > 0 && cells.at(-1) === "") cells.pop();
  return cells;
}

/** One line read as a row, or its problem; "header" when it reads as column names (first line only). */
function rowOf(cells: string[], line: number): PastedRow | RowProblem {
  const [first = "", second = "", third, fourth, fifth] = cells;
  // A label's row has who pays the fee third (or nothing, or anything but an amount); a wallet's row, its amount.
  const labelForm = cells.length <= 4 && (feeOf(third) !== undefined || !readWrittenAmount(third ?? "").ok);
  const amountCell = labelForm ? second : (third ?? "");
  const amount = readWrittenAmount(amountCell);
  const tooWide = cells.length === 5 && feeOf(third) !== undefined;
  if (cells.length < 2 || cells.length > 5 || tooWide || (!labelForm && cells.length < 3))
    return { kind: "columns", line };
  if (!amount.ok) return { kind: "amount", line, why: amount.why };
  const feeCell = labelForm ? third : fourth;
  const feeFrom = feeOf(feeCell);
  if (!feeFrom) return { kind: "fee", line, written: (feeCell ?? "").slice(0, 40) };
  const reference = (labelForm ? fourth : fifth) ?? "";
  if (reference.length > 200) return { kind: "too_long", line, field: "reference" };
  if (labelForm) {
    if (first === "" || first.length > 80) return { kind: "too_long", line, field: "label" };
    return { line, to: { label: first }, amount: amount.value, feeFrom, reference };
  }
  const wallet = second.replace(/\s+/g, "");
  if (!METHOD.test(first) || wallet === "") return { kind: "columns", line };
  if (wallet.length > 512) return { kind: "too_long", line, field: "wallet" };
  return { line, to: { method: first.toUpperCase(), wallet }, amount: amount.value, feeFrom, reference };
}

/** A first line of column names: letters and no digit (every row has an amount). */
function isHeader(cells: string[]): boolean {
  return cells.some((cell) => /\p{L}/u.test(cell)) && !cells.some((cell) => /\d/.test(cell));
}

/** The pasted text read: every row, or every line's problem (at most 10 said). */
export function readPastedBatch(text: string): PastedBatch {
  const separator = separatorOf(text);
  const lines = text.split(/\r\n|\n|\r/);
  const rows: PastedRow[] = [];
  const problems: RowProblem[] = [];
  let seenFirst = false;
  for (const [index, raw] of lines.entries()) {
    if (raw.trim() === "") continue;
    const cells = cellsOf(raw, separator);
    const first = !seenFirst;
    seenFirst = true;
    if (first && isHeader(cells)) continue;
    const read = rowOf(cells, index + 1);
    if ("kind" in read) problems.push(read);
    else rows.push(read);
  }
  if (rows.length + problems.length > BATCH_ROWS_MAX)
    return { ok: false, problems: [{ kind: "too_many", rows: rows.length + problems.length }] };
  if (problems.length > 0) return { ok: false, problems: problems.slice(0, 10) };
  if (rows.length === 0) return { ok: false, problems: [{ kind: "empty" }] };
  return { ok: true, rows };
}
