import { addDecimals, compareDecimals } from "../payments/decimal.js";
import { trustedOf } from "../payout-recipients/lookup.js";
import { sameLabel } from "../payout-recipients/model.js";
import type { PayoutPolicy } from "../payouts/policy.js";
import type { PayoutDeps } from "../payouts/request-deps.js";
import type { BatchRow, MethodBalance } from "./model.js";
import type { PastedRow } from "./rows.js";

// Every row checked before any quote (issue 52, item 3): whom it pays (a trusted recipient's label,
// or a method and wallet, which pays that recipient when it is one), whether the policy allows the
// method, and duplicates (the same wallet and amount as an earlier row) stopped.

const plain = (wallet: string) => wallet.replace(/\s+/g, "");

/** The pasted rows as the batch keeps them, each refused here or ready for its quote. */
export async function checkedRows(
  deps: Pick<PayoutDeps, "board">,
  registerKey: string,
  policy: PayoutPolicy,
  pasted: readonly PastedRow[],
): Promise<BatchRow[]> {
  const trusted = await trustedOf(deps, registerKey);
  const seen = new Map<string, number>();
  return pasted.map((one, index): BatchRow => {
    const row = index + 1;
    const base = { row, line: one.line, amount: one.amount, feeFrom: one.feeFrom, reference: one.reference };
    const found =
      "label" in one.to
        ? trusted.find((recipient) => sameLabel(recipient.label, (one.to as { label: string }).label))
        : trusted.find(
            (recipient) =>
              "method" in one.to &&
              recipient.method.toUpperCase() === one.to.method.toUpperCase() &&
              plain(recipient.wallet) === plain(one.to.wallet),
          );
    if ("label" in one.to && !found)
      return {
        ...base,
        label: one.to.label,
        method: "",
        wallet: "",
        refusal: { kind: "unknown_recipient", words: [one.to.label] },
      };
    const method = (found?.method ?? ("method" in one.to ? one.to.method : "")).toUpperCase();
    const wallet = found?.wallet ?? ("wallet" in one.to ? one.to.wallet : "");
    const shaped = {
      ...base,
      method,
      wallet,
      ...(found ? { recipient: { id: found.id, label: found.label }, label: found.label } : {}),
    };
    if (policy.methods.length > 0 && !policy.methods.some((code) => code.toUpperCase() === method))
      return { ...shaped, refusal: { kind: "method_not_allowed", words: policy.methods.slice(0, 5) } };
    const key = `${method} ${plain(wallet)} ${addDecimals(one.amount, "0")}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) return { ...shaped, refusal: { kind: "duplicate", words: [String(earlier)] } };
    seen.set(key, row);
    return shaped;
  });
}

/** The RUB the caps can count before any quote: the rows by RUB methods (others count once quoted). */
export function rubBeforeQuotes(rows: readonly BatchRow[], balances: readonly MethodBalance[]): string {
  const rub = rows.filter(
    (row) =>
      !row.refusal &&
      balances.some((one) => one.method === row.method && one.currency.toUpperCase() === "RUB"),
  );
  return rub.length > 0 ? addDecimals(...rub.map((row) => row.amount)) : "0";
}

/** Per method (and its currency): what arrives, the fees, what leaves the balance, and the balance. */
export type MethodTotals = {
  method: string;
  currency: string;
  rows: number;
  receives: string;
  fee: string;
  leaves: string;
  balance?: string | undefined;
  /** What leaves is more than the balance read: rows may be refused at their send. */
  short: boolean;
};

export function methodTotals(rows: readonly BatchRow[], balances: readonly MethodBalance[]): MethodTotals[] {
  const groups = new Map<string, BatchRow[]>();
  for (const row of rows) {
    if (!row.quote) continue;
    const key = `${row.method} ${row.quote.currency}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups.values()].map((group) => {
    const first = group[0] as BatchRow & { quote: NonNullable<BatchRow["quote"]> };
    const sum = (pick: (quote: NonNullable<BatchRow["quote"]>) => string) =>
      addDecimals(...group.map((row) => (row.quote ? pick(row.quote) : "0")));
    const leaves = sum((quote) => quote.leavesBalance);
    const balance = balances.find(
      (one) =>
        one.method === first.method && one.currency.toUpperCase() === first.quote.currency.toUpperCase(),
    )?.value;
    return {
      method: first.method,
      currency: first.quote.currency,
      rows: group.length,
      receives: sum((quote) => quote.receives),
      fee: sum((quote) => quote.fee),
      leaves,
      balance,
      short: balance !== undefined && compareDecimals(leaves, balance) > 0,
    };
  });
}
