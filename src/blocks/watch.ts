import type { types } from "@slack/bolt";
import type { Invoice } from "../payments/model.js";
import { type StopButtonValue, stopButton as stopValue } from "./button-values.js";
import { formatDecimal, formatMoney, slackDateFromEpoch } from "./format.js";
import { WATCH_ACTIONS } from "./ids.js";
import { type EnteredAmount, INVOICE_STATES } from "./invoice.js";
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

function at(date: Date): string {
  return slackDateFromEpoch(Math.floor(date.getTime() / 1000));
}

export function watchStatusText(status: WatchStatus): string {
  switch (status.kind) {
    case "watching":
      return status.private
        ? `:satellite_antenna: Kassa is watching this invoice and will send you a direct message when its state changes. Last checked ${at(status.lastCheckedAt)}.`
        : `:satellite_antenna: Live: Kassa is watching this invoice and updates this card when it changes. Last checked ${at(status.lastCheckedAt)}.`;
    case "not_watched":
      switch (status.reason) {
        case "workspace_full":
          return `Not updated live: this workspace already has ${status.limit} invoices being watched, the most Kassa allows. Press Refresh for the latest.`;
        case "invoice_full":
          return `Not updated live: this invoice already has ${status.limit} live cards. Press Refresh for the latest.`;
        case "asker_full":
          return `Not updated live: you already have live cards on ${status.limit} invoices, your share of what Kassa watches in this workspace. Press Stop updating on one you no longer need, or Refresh here for the latest.`;
        case "not_in_channel":
          return "Live updates need Kassa in this channel: type `/invite @Kassa` here, then ask again.";
        case "cannot_post":
          return "Live updates are off for this card: Kassa could not post it as its own message (a workspace admin may need to reinstall Kassa to grant it `chat:write`).";
      }
      break;
    case "ended":
      switch (status.reason) {
        case "final":
          return "Final state: Kassa stopped watching this invoice.";
        case "expired":
          return "Expired without payment: Kassa stopped watching this invoice.";
        case "credentials":
          return ":electric_plug: Kassa stopped watching: the cash register's credentials no longer work. A workspace admin can reconnect with `/invoice connect`.";
        case "max_hours":
          return `Kassa stopped watching this invoice after ${status.hours} h. Press Refresh for the latest.`;
        case "stopped":
          return `Live updates stopped by <@${status.by}>. Press Refresh for the latest.`;
      }
  }
  return "";
}

function watchBlock(status: WatchStatus): types.ContextBlock {
  return {
    type: "context",
    block_id: WATCH_BLOCK_ID,
    elements: [{ type: "mrkdwn", text: truncate(watchStatusText(status), LIMITS.sectionText) }],
  };
}

export type { StopButtonValue } from "./button-values.js";

function stopButton(value: StopButtonValue): types.Button {
  return {
    type: "button",
    action_id: WATCH_ACTIONS.stop,
    text: { type: "plain_text", text: "Stop updating" },
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
): SlackMessage {
  const blocks: types.KnownBlock[] = [];
  for (const block of message.blocks) {
    if (block.block_id === WATCH_BLOCK_ID) continue;
    if (block.type === "actions") {
      const elements = block.elements.filter((element) => !isStopButton(element));
      if (status.kind === "watching") elements.push(stopButton(value));
      blocks.push({ ...block, elements });
    } else blocks.push(block);
  }
  const lastContext = blocks.map((block) => block.type).lastIndexOf("context");
  blocks.splice(lastContext === -1 ? blocks.length : lastContext, 0, watchBlock(status));
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
export function stoppedCard(from: readonly unknown[], by: string): types.KnownBlock[] {
  const blocks = from as types.KnownBlock[];
  return blocks.map((block) => {
    if (block.block_id === WATCH_BLOCK_ID) return watchBlock({ kind: "ended", reason: "stopped", by });
    if (block.type === "actions")
      return { ...block, elements: block.elements.filter((e) => !isStopButton(e)) };
    return block;
  });
}

/** The label a state change is told with; "expired" is Kassa's own (the service keeps such an invoice notpayed). */
export function stateLabel(state: string): string {
  if (state === "expired") return "Expired";
  return Object.hasOwn(INVOICE_STATES, state) ? (INVOICE_STATES[state]?.label ?? state) : state;
}

/**
 * The one line that tells a change, e.g. "<@U123> Invoice 7154…: Not paid → Paid · 1,500 RUB".
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
  } = {},
): string {
  const amount = noticeAmount(invoice, options.previous);
  const user = options.user;
  const entered = options.entered;
  const amountText = !amount
    ? ""
    : entered && amount.currency && entered.currency.toUpperCase() !== amount.currency.toUpperCase()
      ? ` · ${formatDecimal(entered.value)} ${entered.currency}, charged as ${formatMoney(amount)}`
      : ` · ${formatMoney(amount)}`;
  const text = `Invoice ${invoice.id}: ${stateLabel(from)} → ${stateLabel(to)}${amountText}`;
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
