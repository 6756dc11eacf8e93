import { formatAmount } from "../../blocks/format.js";
import { typedFigures } from "../../blocks/payout-batch.js";
import {
  plainOf,
  requestRefusalText,
  type SlackVoteRefusal,
  voteRefusalText,
} from "../../blocks/payout-replies.js";
import type { Lang } from "../../i18n/lang.js";
import { PAYOUT_BATCH_TEXT } from "../../i18n/payout-batch.js";
import type { BatchRefusal } from "../../payout-batches/create.js";
import type { BatchVoteRefusal } from "../../payout-batches/decide.js";
import type { RowProblem } from "../../payout-batches/rows.js";

/** Why a click on a batch changed nothing, and who can. */
export function batchVoteRefusalText(refusal: BatchVoteRefusal | SlackVoteRefusal, lang: Lang): string {
  const t = PAYOUT_BATCH_TEXT[lang];
  switch (refusal.kind) {
    case "typed_mismatch":
      return t.typedMismatch(
        refusal.rows,
        formatAmount(refusal.total, "RUB", lang),
        typedFigures(refusal.rows, refusal.total),
      );
    case "refused_rows":
      return refusal.count === 0 ? t.noRefusedRows : t.refusedRows(refusal.count);
    case "busy":
      return t.quoting;
    default:
      return voteRefusalText(refusal, lang);
  }
}

/** Why a batch was refused before any quote: the policy, who may, a daily cap. */
export function batchRefusalText(refusal: BatchRefusal, register: string, lang: Lang): string {
  return requestRefusalText(refusal, register, lang);
}

/** The pasted lines that could not be read, one a line, as the form says them under its field. */
export function pasteProblemsText(problems: readonly RowProblem[], lang: Lang): string {
  const t = PAYOUT_BATCH_TEXT[lang];
  const lines = problems.map((problem) => {
    switch (problem.kind) {
      case "amount":
        return t.paste.amount(problem.line, t.amountWhy[problem.why]);
      case "fee":
        return t.paste.fee(problem.line, problem.written);
      case "too_long":
        return t.paste.too_long(problem.line, problem.field);
      case "too_many":
        return t.paste.too_many(0, String(problem.rows));
      case "empty":
        return t.paste.empty(0, "");
      default:
        return t.paste.columns(problem.line, "");
    }
  });
  return plainOf(lines.join(" ")).slice(0, 1900);
}
