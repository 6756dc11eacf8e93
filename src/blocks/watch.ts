import type { types } from "@slack/bolt";
import { INVOICE_CARD_TEXT } from "../i18n/invoice-card.js";
import type { Lang } from "../i18n/lang.js";
import { LIVE_CARD_TEXT } from "../i18n/live-card.js";
import type { Invoice } from "../payments/model.js";
import { type StopButtonValue, stopButton as stopValue } from "./button-values.js";
import { formatAmount, formatMoney, slackDateFromEpoch } from "./format.js";
import { WATCH_ACTIONS } from "./ids.js";
import type { EnteredAmount } from "./invoice.js";
import { plainState } from "./invoice-state.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, truncate } from "./mrkdwn.js";

export { WATCH_ACTIONS } from "./ids.js";

/** The context block that says whether a card is live; found again by its id. */
export const WATCH_BLOCK_ID = "invoice_watch";

/** What a card says about live updates. */
export type WatchStatus =
  | { kind: "watching"; lastCheckedAt: Date; private?: boolean }
  | { kind: "not_watched"; reason: "workspace_full" | "invoice_full" | "asker_full"; limit: number }
  | { kind: "not_watched"; reason: "not_in_channel" | "cannot_post" }
  | { kind: "ended"; reason: "final" | "expired" | "credentials" }
  | { kind: "ended"; reason: "max_hours"; hours: number }
  | { kind: "ended"; reason: "stopped"; by: string };

export function watchStatusText(status: WatchStatus, lang: Lang = "en"): string {
  const t = LIVE_CARD_TEXT[lang];
  const at = (date: Date) => slackDateFromEpoch(Math.floor(date.getTime() / 1000), lang);
  switch (status.kind) {
    case "watching":
      return status.private
        ? t.watchingPrivate(at(status.lastCheckedAt))
        : t.watching(at(status.lastCheckedAt));
    case "not_watched":
      switch (status.reason) {
        case "workspace_full":
          return t.workspaceFull(status.limit);
        case "invoice_full":
          return t.invoiceFull(status.limit);
        case "asker_full":
          return t.askerFull(status.limit);
        case "not_in_channel":
          return t.notInChannel;
        case "cannot_post":
          return t.cannotPost;
      }
      break;
    case "ended":
      switch (status.reason) {
        case "final":
          return t.final;
        case "expired":
          return t.expired;
        case "credentials":
          return t.credentials;
        case "max_hours":
          return t.maxHours(status.hours);
        case "stopped":
          return t.stopped(`<@${status.by}>`);
      }
  }
  return "";
}

function watchBlock(status: WatchStatus, lang: Lang): types.ContextBlock {
  return {
    type: "context",
    block_id: WATCH_BLOCK_ID,
    elements: [{ type: "mrkdwn", text: truncate(watchStatusText(status, lang), LIMITS.sectionText) }],
  };
}

export type { StopButtonValue } from "./button-values.js";

function stopButton(value: StopButtonValue, lang: Lang): types.Button {
  return {
    type: "button",
    action_id: WATCH_ACTIONS.stop,
    text: { type: "plain_text", text: LIVE_CARD_TEXT[lang].stop },
    value: stopValue.write(value),
  };
}

function isStopButton(element: unknown): boolean {
  return (element as { action_id?: string }).action_id === WATCH_ACTIONS.stop;
}

/**
 * A card with its live-update line (before the last context line), and the Stop updating button
 * while it is watched. Pure: any earlier line or button is replaced.
 */
export function withWatchStatus(
  message: SlackMessage,
  status: WatchStatus,
  value: StopButtonValue,
  lang: Lang = "en",
): SlackMessage {
  const blocks: types.KnownBlock[] = [];
  for (const block of message.blocks) {
    if (block.block_id === WATCH_BLOCK_ID) continue;
    if (block.type === "actions") {
      const elements = block.elements.filter((element) => !isStopButton(element));
      if (status.kind === "watching") elements.push(stopButton(value, lang));
      blocks.push({ ...block, elements });
    } else blocks.push(block);
  }
  const lastContext = blocks.map((block) => block.type).lastIndexOf("context");
  blocks.splice(lastContext === -1 ? blocks.length : lastContext, 0, watchBlock(status, lang));
  return { ...message, blocks };
}

/** The live-update line and Stop button of a card being replaced (Refresh keeps them as they were). */
export function carryWatchStatus(from: readonly unknown[] | undefined, message: SlackMessage): SlackMessage {
  const blocks = (from ?? []) as types.KnownBlock[];
  const line = blocks.find((block) => block.block_id === WATCH_BLOCK_ID);
  if (!line) return message;
  const stop = blocks
    .filter((block): block is types.ActionsBlock => block.type === "actions")
    .flatMap((block) => block.elements)
    .find(isStopButton);
  const out: types.KnownBlock[] = [];
  for (const block of message.blocks) {
    if (block.type === "actions" && stop) out.push({ ...block, elements: [...block.elements, stop] });
    else out.push(block);
  }
  const lastContext = out.map((block) => block.type).lastIndexOf("context");
  out.splice(lastContext === -1 ? out.length : lastContext, 0, line);
  return { ...message, blocks: out };
}

/** A pressed card with the Stop button gone and its live line saying who stopped it. */
export function stoppedCard(from: readonly unknown[], by: string, lang: Lang = "en"): types.KnownBlock[] {
  const blocks = from as types.KnownBlock[];
  return blocks.map((block) => {
    if (block.block_id === WATCH_BLOCK_ID) return watchBlock({ kind: "ended", reason: "stopped", by }, lang);
    if (block.type === "actions")
      return { ...block, elements: block.elements.filter((e) => !isStopButton(e)) };
    return block;
  });
}

/** The label a state change is told with; "expired" is Kassa's own (the service keeps such an invoice notpayed). */
export function stateLabel(state: string, lang: Lang = "en"): string {
  if (state === "expired") return LIVE_CARD_TEXT[lang].expiredState;
  return plainState(state, lang);
}

/**
 * The one line that tells a change, e.g. "<@U123> Invoice 7154…: Not paid → Paid · 1,500.00 RUB".
 * Everything from the service is escaped; `user` is mentioned when given.
 */
export function changeNotice(
  invoice: Invoice,
  from: string,
  to: string,
  options: {
    user?: string | undefined;
    previous?: Invoice | undefined;
    entered?: EnteredAmount | undefined;
    lang?: Lang;
  } = {},
): string {
  const lang = options.lang ?? "en";
  const amount = noticeAmount(invoice, options.previous);
  const user = options.user;
  const entered = options.entered;
  const amountText = !amount
    ? ""
    : entered && amount.currency && entered.currency.toUpperCase() !== amount.currency.toUpperCase()
      ? INVOICE_CARD_TEXT[lang].charged(
          formatAmount(entered.value, entered.currency, lang),
          formatMoney(amount, lang),
        )
      : formatMoney(amount, lang);
  const text = LIVE_CARD_TEXT[lang].notice(
    invoice.id,
    stateLabel(from, lang),
    stateLabel(to, lang),
    amountText,
  );
  return `${user ? `<@${user}> ` : ""}${truncate(escapeMrkdwn(text), LIMITS.sectionText - 40)}`;
}

/**
 * The invoice amount to name. With API v2 the answer stops naming the invoice's own currency once a
 * method is picked; the earlier answer for the same invoice and the same amount did name it, so that
 * one is used. Anything else shows as the service gave it.
 */
function noticeAmount(invoice: Invoice, previous: Invoice | undefined) {
  const amount = invoice.amounts.amount;
  const before = previous?.amounts.amount;
  if (invoice.apiVersion !== "v2" || invoice.currencyConflict) return amount;
  if (amount && amount.currency === null && before?.currency && before.value === amount.value) return before;
  return amount;
}
