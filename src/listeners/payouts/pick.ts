import { shortWallet } from "../../blocks/payout-forms.js";
import type { Lang } from "../../i18n/lang.js";
import { PAYOUT_PICK_TEXT } from "../../i18n/payout-pick.js";
import { recipientOf } from "../../payout-recipients/lookup.js";
import { type Recipient, sameWallet } from "../../payout-recipients/model.js";
import type { ListenerDeps } from "../deps.js";

// The request form's trusted recipient picker (issue 52), at submission: a recipient picked pays its
// own method and wallet, read again now (still trusted, as it is when the payout is sent); without
// one, the method and the wallet typed. Either way the request is then made as `/payout to LABEL`
// makes it (askPayout: the recipient and its wallet extra on the request, its approval rule).

/** What the form's payee fields hold: the recipient's id (empty: none picked), the method and wallet typed. */
export type PayeeFields = { recipient: string; method: string; wallet: string };

/** Whom the form pays; or the field to mark and what to say there (plain text). */
export type Payee =
  | { ok: true; method: string; wallet: string; recipient?: Recipient }
  | { ok: false; field: "recipient" | "method" | "wallet"; text: string; why: string };

export async function payeeOfForm(
  deps: Pick<ListenerDeps, "payouts">,
  registerKey: string,
  fields: PayeeFields,
  lang: Lang,
): Promise<Payee> {
  const p = PAYOUT_PICK_TEXT[lang];
  const { method, wallet } = fields;
  if (!fields.recipient) {
    if (method && wallet) return { ok: true, method, wallet };
    return { ok: false, field: method ? "wallet" : "method", text: p.nothingToPay, why: "no_payee" };
  }
  const recipient = await recipientOf(deps.payouts, registerKey, fields.recipient);
  if (recipient?.status !== "trusted")
    return {
      ok: false,
      field: "recipient",
      text: p.notTrusted(recipient?.label ?? p.recipient),
      why: "recipient_not_trusted",
    };
  const otherMethod = method !== "" && method.toUpperCase() !== recipient.method.toUpperCase();
  const otherWallet = wallet !== "" && !sameWallet(recipient, recipient.method, wallet);
  if (otherMethod || otherWallet)
    return {
      ok: false,
      field: otherMethod ? "method" : "wallet",
      text: p.disagree(recipient.label, recipient.method, shortWallet(recipient.wallet)),
      why: "recipient_disagrees",
    };
  return { ok: true, method: recipient.method, wallet: recipient.wallet, recipient };
}
