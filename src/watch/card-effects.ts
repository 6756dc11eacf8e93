import type { webApi } from "@slack/bolt";
import type { WatchStatus } from "../blocks/watch.js";
import { DEFAULT_LANG } from "../i18n/lang.js";
import type { Invoice } from "../payments/model.js";
import type { Logger } from "../util/logger.js";
import { classifyCardFailure, DeliveryFailed, type DrawContext, deliverCard } from "./delivery.js";
import { cardId, readKey, type Watch, type WatchCard, type WatchQueue } from "./model.js";
import { nothingOwed } from "./owed.js";
import type { InvoiceReader } from "./registry.js";

/** What telling Slack needs: the queue (to write down what is owed), clients, the method's name, the log. */
export type CardEffectsDeps = {
  queue: WatchQueue;
  slack: (teamId: string) => Promise<webApi.WebClient | undefined>;
  /** The method's name and the workspace's language (English when it cannot be read: a card is never left untold for it). */
  reader: Pick<InvoiceReader, "methodFor" | "languageOf" | "refundOffered" | "replacementOf">;
  logger: Logger;
  now: () => Date;
};

/**
 * Delivers to each card what it is owed (and, with `redraw`, a redraw to every channel card).
 * Updates `watch.cards` to what each card still owes; "token_dead" when the watch has ended.
 * A card Slack no longer has is dropped; a transient failure keeps what is owed, one more attempt
 * counted, for a later pass; a failed best-effort redraw is simply tried at the next read.
 */
export async function deliverToCards(
  deps: CardEffectsDeps,
  watch: Watch,
  invoice: Invoice,
  status: WatchStatus,
  redraw: boolean,
): Promise<"token_dead" | { retryAfterMs: number }> {
  const due = watch.cards.filter((card) => !nothingOwed(card.owed) || (redraw && card.kind === "channel"));
  if (due.length === 0) return { retryAfterMs: 0 };
  const client = await deps.slack(watch.team);
  if (!client) {
    deps.logger.warn({ team: watch.team, outcome: "watch_no_token" }, "no bot token for a watched workspace");
    return { retryAfterMs: 0 };
  }
  const now = deps.now();
  const drawing = await drawingOf(deps, watch, invoice);
  const save = async (card: WatchCard) => {
    await deps.queue.setCard(watch.team, watch.invoiceId, card, watch.lease);
  };
  let retryAfterMs = 0;
  const log = { team: watch.team, invoice: watch.invoiceId };
  for (const card of due) {
    const stored = !nothingOwed(card.owed);
    const at = watch.cards.indexOf(card);
    const owing: WatchCard = stored ? card : { ...card, owed: { redraw: true } };
    try {
      const context = { client, watch, invoice, status, now, save, ...drawing };
      const settled = await deliverCard(owing, context);
      watch.cards[at] = settled;
      if (stored) await save(settled);
    } catch (error) {
      const failed = error instanceof DeliveryFailed ? error : new DeliveryFailed(owing, error);
      const failure = classifyCardFailure(failed.cause);
      if (failure.kind === "card_gone") {
        watch.cards.splice(at, 1);
        await deps.queue.removeCard(watch.team, watch.invoiceId, cardId(card));
        deps.logger.info(
          { ...log, outcome: "watch_card_gone", slackError: failure.code },
          "card dropped from its watch",
        );
      } else if (failure.kind === "token_dead") {
        await deps.queue.remove(watch.team, watch.invoiceId, watch.lease);
        deps.logger.warn(
          { ...log, outcome: "watch_ended", reason: "slack_token", slackError: failure.code },
          "watch ended",
        );
        return "token_dead";
      } else if (stored) {
        // Still owed: kept with one more attempt counted, delivered on a later pass.
        const kept: WatchCard = {
          ...failed.card,
          owed: { ...(failed.card.owed ?? { redraw: false }), attempts: (card.owed?.attempts ?? 0) + 1 },
        };
        watch.cards[at] = kept;
        await save(kept);
        retryAfterMs = Math.max(retryAfterMs, failure.retryAfterMs ?? 0);
        deps.logger.warn(
          { ...log, outcome: "watch_update_failed", slackError: failure.code, owed: kept.owed },
          "card not updated yet; it stays owed and is tried again",
        );
      } else {
        deps.logger.warn(
          { ...log, outcome: "watch_update_failed", slackError: failure.code },
          "card refresh failed; tried at the next read",
        );
      }
    }
  }
  return { retryAfterMs };
}

/**
 * What every card of the watch is drawn with besides the invoice, each read apart and none failing
 * the redraw: the method's name, the workspace's language (English when unread), Refund on a paid
 * invoice where the register's payouts are on (as /invoice ID's card), and what replaced its link
 * where it was re-issued (a store read only for an invoice that carries Kassa's marker).
 */
async function drawingOf(
  deps: CardEffectsDeps,
  watch: Watch,
  invoice: Invoice,
): Promise<Pick<DrawContext, "method" | "lang" | "refund" | "replacedBy">> {
  const key = readKey(watch);
  const { reader } = deps;
  const [method, lang, refund, replacedBy] = await Promise.all([
    invoice.method ? reader.methodFor(key, invoice.method).catch(() => undefined) : undefined,
    reader.languageOf?.(watch.team).catch(() => undefined),
    invoice.state === "payed" ? reader.refundOffered?.(key).catch(() => false) : false,
    reader.replacementOf?.(key, invoice).catch(() => undefined),
  ]);
  return { method, lang: lang ?? DEFAULT_LANG, refund: refund === true, replacedBy };
}
