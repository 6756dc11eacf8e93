import type { webApi } from "@slack/bolt";
import { buildInvoiceMessage } from "../blocks/invoice.js";
import { changeNotice, type WatchStatus, withWatchStatus } from "../blocks/watch.js";
import type { Lang } from "../i18n/lang.js";
import type { Invoice, PaymentMethod } from "../payments/model.js";
import { slackApiError } from "../slack/error.js";
import { isChannelGone, slackFailureOfCode } from "../slack/failures.js";
import { type Owed, type Watch, type WatchCard, WORKFLOW_ASKER } from "./model.js";

// The Slack side of a live card: what one card is owed, delivered, and what Slack's answer means.

/** What a failed Slack call means for the card: gone, the token is, or try again (at `retryAfterMs`). */
export type CardFailure =
  | { kind: "card_gone"; code: string }
  | { kind: "token_dead"; code: string }
  | { kind: "transient"; code: string; retryAfterMs?: number };

/**
 * Permanent answers drop the card (its channel or message gone) or end the watch (the token dead);
 * everything else (HTTP 5xx, `ratelimited`, time-outs, connection errors, anything unknown) is
 * transient: the card stays owed.
 */
export function classifyCardFailure(error: unknown): CardFailure {
  const data = error as { code?: string; retryAfter?: number };
  // Slack's answer first; else the Web API client's own code (a time-out, a refused connection).
  const code = slackApiError(error) ?? data.code ?? (error as Error).message ?? "unknown";
  const failure = slackFailureOfCode(code);
  if (isChannelGone(failure) || failure === "message_gone") return { kind: "card_gone", code };
  if (failure === "token_dead") return { kind: "token_dead", code };
  if (data.code === "slack_webapi_rate_limited_error" || failure === "rate_limited") {
    const seconds = typeof data.retryAfter === "number" ? data.retryAfter : 1;
    return { kind: "transient", code: "ratelimited", retryAfterMs: Math.max(1, seconds) * 1000 };
  }
  return { kind: "transient", code };
}

export type DrawContext = {
  client: webApi.WebClient;
  watch: Watch;
  invoice: Invoice;
  status: WatchStatus;
  method: PaymentMethod | undefined;
  now: Date;
  /** The workspace's language. */
  lang: Lang;
  /** The card offers Refund (paid, the register's payouts on). */
  refund?: boolean;
  /** What replaced the invoice's link (a re-issue): said on the card, which then offers no Re-issue. */
  replacedBy?: { invoiceId: string; user: string } | undefined;
  /** Stores the card as it stands (what it is still owed) before and after each call. */
  save(card: WatchCard): Promise<void>;
};

/** A delivery that stopped at a Slack call: the card as it stands (still owing the rest), and why. */
export class DeliveryFailed extends Error {
  constructor(
    readonly card: WatchCard,
    override readonly cause: unknown,
  ) {
    super("card delivery failed");
  }
}

/**
 * Delivers what the card is owed, in order: the redraw, then the note ("sending" stored before the
 * call, cleared after it). Resolves with the card as it now stands (nothing owed on success); rejects
 * with the Slack error of the first call that failed, the card still owing the rest.
 */
export async function deliverCard(card: WatchCard, context: DrawContext): Promise<WatchCard> {
  const owed: Owed = { ...(card.owed ?? { redraw: false }) };
  const current = (): WatchCard => ({ ...card, owed: { ...owed } });
  try {
    await deliver(card, owed, current, context);
  } catch (error) {
    throw new DeliveryFailed(current(), error);
  }
  const { owed: _delivered, ...settled } = card;
  return settled;
}

async function deliver(
  card: WatchCard,
  owed: Owed,
  current: () => WatchCard,
  context: DrawContext,
): Promise<void> {
  const { client, watch, invoice } = context;
  const base = buildInvoiceMessage(invoice, {
    now: context.now,
    teamId: watch.team,
    visibility: "channel",
    originalState: card.postedState,
    method: context.method,
    lang: context.lang,
    ...(card.kind === "channel" && card.createdBy ? { createdBy: card.user } : {}),
    ...(card.kind === "channel" && card.entered ? { entered: card.entered } : {}),
    ...(card.kind === "channel" && card.customer ? { customer: card.customer } : {}),
    register: watch.registerName,
    ...(context.refund ? { refund: { button: true } } : {}),
    ...(context.replacedBy ? { replacedBy: context.replacedBy } : {}),
  });
  if (card.kind === "channel" && owed.redraw) {
    const message = withWatchStatus(
      base,
      context.status,
      { t: watch.team, id: watch.invoiceId },
      context.lang,
    );
    await client.chat.update({
      channel: card.channel,
      ts: card.ts,
      text: message.text,
      blocks: message.blocks,
    });
    owed.redraw = false;
    if (owed.note) await context.save(current());
  }
  if (owed.note) {
    const { from, to } = owed.note;
    if (!owed.noteSending) {
      owed.noteSending = true;
      await context.save(current());
    }
    if (card.kind === "channel") {
      const text = changeNotice(invoice, from, to, {
        user: card.user === WORKFLOW_ASKER ? undefined : card.user,
        previous: watch.invoice,
        entered: card.entered,
        lang: context.lang,
      });
      await client.chat.postMessage({ channel: card.channel, thread_ts: card.ts, text });
    } else {
      // A private card cannot be edited later: the asker gets the change and the card by DM.
      const text = changeNotice(invoice, from, to, { previous: watch.invoice, lang: context.lang });
      await client.chat.postMessage({
        channel: card.user,
        text,
        blocks: [{ type: "section", text: { type: "mrkdwn", text } }, ...base.blocks],
      });
    }
    delete owed.note;
    delete owed.noteSending;
  }
}
