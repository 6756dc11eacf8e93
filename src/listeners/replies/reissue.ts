import { stateText } from "../../blocks/invoice.js";
import { inlineCode } from "../../blocks/mrkdwn.js";
import { reissueEarlyMessage } from "../../blocks/reissue.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { REISSUE_TEXT } from "../../i18n/reissue.js";
import type { Reissue } from "../../links/reissue.js";
import type { Note, Produced, ReissueResult } from "../contexts/outcome.js";
import { failedLinkReply } from "./link-failure.js";

/**
 * What a re-issue came to, said to whoever asked (the Re-issue button, Re-issue anyway, `/invoice
 * reissue ID`): done (the new card is in the old card's thread), the warning before expiry, or why not.
 */
export function reissueReply(
  done: Reissue,
  given: { team: string; register: string | undefined; lang: Lang; note: Note },
): Produced {
  const { lang, note } = given;
  const t = REISSUE_TEXT[lang];
  const said = (text: string, result: ReissueResult): Produced => ({
    reply: ephemeral(text, text.replace(/[`*]/g, "")),
    log: { outcome: "reissue", result },
  });
  const id = (invoiceId: string | undefined) => inlineCode(invoiceId ?? "?");
  switch (done.kind) {
    case "not_kassa":
      return said(t.notKassa(id(done.invoiceId)), "not_kassa");
    case "not_created":
      return said(t.notCreated, "not_created");
    case "paid":
      return said(t.paid(id(done.invoiceId)), "paid");
    case "in_payment":
      return said(t.inPayment(id(done.invoice.id), stateText(done.invoice.state, lang)), "in_payment");
    case "already":
      return said(
        t.already(id(done.record.invoiceId), `<@${done.by}>`, done.newInvoiceId && id(done.newInvoiceId)),
        "already",
      );
    case "early": {
      const link = { t: given.team, k: done.record.ref, r: given.register };
      const expiresAtSeconds = done.invoice.expiredAt.epochSeconds;
      const reply = reissueEarlyMessage({ invoiceId: done.invoice.id, expiresAtSeconds, link }, lang);
      return { reply, log: { outcome: "reissue", result: "early" } };
    }
  }
  const { attempt, draft, record, card } = done;
  note({ invoice: record.invoiceId ?? "" });
  if (!attempt.ok) {
    const failed = failedLinkReply(attempt, draft, { t: given.team, r: given.register }, lang);
    return { reply: failed.message, log: failed.outcome };
  }
  const text = t.done(id(record.invoiceId), id(attempt.created.id), card.inThread === true);
  return {
    reply: ephemeral(text, text.replace(/[`*]/g, "")),
    log: {
      outcome: "reissue",
      result: "reissued",
      reissued: attempt.created.id,
      inThread: card.inThread === true,
      ...(card.oldCard ? { oldCard: card.oldCard } : {}),
      ...(card.posted ? { posted: card.posted } : {}),
    },
  };
}
