import { stateText } from "../../blocks/invoice.js";
import { inlineCode } from "../../blocks/mrkdwn.js";
import { reissueEarlyMessage } from "../../blocks/reissue.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { REISSUE_TEXT } from "../../i18n/reissue.js";
import type { Reissue, ReissueLog } from "../../links/reissue.js";
import type { Note, Produced } from "../contexts/outcome.js";
import { failedLinkReply } from "./link-failure.js";

type Given = { team: string; register: string | undefined; lang: Lang; note: Note };

const said = (text: string, log: ReissueLog): Produced => ({
  reply: ephemeral(text, text.replace(/[`*]/g, "")),
  log: { outcome: "reissue", ...log },
});
const id = (invoiceId: string | undefined) => inlineCode(invoiceId ?? "?");

/**
 * What a re-issue came to, said to whoever asked (the Re-issue button, Re-issue anyway, `/invoice
 * reissue ID`): done (the new card is in the old card's thread), the warning before expiry, or why not.
 */
export function reissueReply(done: Reissue, given: Given): Produced {
  const t = REISSUE_TEXT[given.lang];
  switch (done.kind) {
    case "not_kassa":
      return said(t.notKassa(id(done.invoiceId)), { result: done.kind });
    case "not_created":
      return said(t.notCreated, { result: done.kind });
    case "paid":
      return said(t.paid(id(done.invoiceId)), { result: done.kind });
    case "in_payment":
      return said(t.inPayment(id(done.invoice.id), stateText(done.invoice.state, given.lang)), {
        result: done.kind,
      });
    case "already": {
      const text = t.already(
        id(done.record.invoiceId),
        `<@${done.by}>`,
        done.newInvoiceId && id(done.newInvoiceId),
      );
      return said(text, { result: done.kind });
    }
    case "early": {
      const link = { t: given.team, k: done.record.ref, r: given.register };
      const expiresAtSeconds = done.invoice.expiredAt.epochSeconds;
      const reply = reissueEarlyMessage({ invoiceId: done.invoice.id, expiresAtSeconds, link }, given.lang);
      return { reply, log: { outcome: "reissue", result: "early" } };
    }
  }
  return reissuedReply(done, given);
}

/** The new invoice made (its card in the thread), or why not, as a create says it. */
function reissuedReply(done: Extract<Reissue, { kind: "attempted" }>, given: Given): Produced {
  const { attempt, draft, record, card } = done;
  given.note({ invoice: record.invoiceId ?? "" });
  if (!attempt.ok) {
    const failed = failedLinkReply(attempt, draft, { t: given.team, r: given.register }, given.lang);
    return { reply: failed.message, log: failed.outcome };
  }
  const inThread = card.inThread === true;
  return said(REISSUE_TEXT[given.lang].done(id(record.invoiceId), id(attempt.created.id), inThread), {
    result: "reissued",
    reissued: attempt.created.id,
    inThread,
    ...(card.oldCard ? { oldCard: card.oldCard } : {}),
    ...(card.posted ? { posted: card.posted } : {}),
  });
}
