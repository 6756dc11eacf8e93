import { type BenchTarget, MINIMAL_REPLY_TEXT } from "../../../sandbox/bench-protocol.js";
import { type SampleInvoice, sampleInvoices } from "../../../sandbox/fake-payments.js";
import type { SlackReply } from "../../../sandbox/slack.js";
import type { Stack } from "../../../sandbox/stack.js";
import type { Options } from "./options.js";

// npm run bench: the load.

export type Kind = "invoice" | "paymethods";
export type Outcome = "ok" | "failed" | "missing" | "not_acked";
export type Sample = { kind: Kind; outcome: Outcome; ackMs?: number; replyMs?: number; detail?: string };

/**
 * The invoices the fake payment service knows: its samples (one per state), or `count` distinct ids
 * made from them. Identical lookups under way at the same time share one call to the service, so
 * few distinct ids under load flatter the app; more ids are closer to many people's own invoices.
 */
export function benchInvoices(count: number): SampleInvoice[] {
  const samples = sampleInvoices();
  if (count <= samples.length) return samples.slice(0, count);
  return Array.from({ length: count }, (_, index) => {
    const sample = samples[index % samples.length] as SampleInvoice;
    return { ...sample, id: `${sample.id.slice(0, 40)}_${index}` };
  });
}
/** Filters that all match something in the sandbox register (no "nothing matches" note). */
const PAYMETHODS_TEXTS = ["", "btc", "card", "enabled"];

function commandFor(index: number, users: number, invoiceIds: string[]) {
  const round = Math.floor(index / 2);
  const userId = `U0BENCH${String(round % users).padStart(4, "0")}`;
  if (index % 2 === 0) {
    const invoiceId = invoiceIds[round % invoiceIds.length] ?? "";
    return { kind: "invoice" as const, command: "/invoice", text: invoiceId, userId };
  }
  return {
    kind: "paymethods" as const,
    command: "/paymethods",
    text: PAYMETHODS_TEXTS[round % PAYMETHODS_TEXTS.length] ?? "",
    userId,
  };
}

const blockIds = (body: Record<string, unknown>): string[] =>
  (Array.isArray(body.blocks) ? (body.blocks as unknown[]) : []).flatMap((block) =>
    typeof block === "object" && block !== null && "block_id" in block ? [String(block.block_id)] : [],
  );

/**
 * The card or the list, or else a failure: error and usage notes are ephemeral text. Kassa's
 * /invoice card (REPLY_VISIBILITY=channel) is in_channel with its buttons and names the invoice;
 * its /paymethods list is in_channel with the page buttons.
 */
export function classify(target: BenchTarget, kind: Kind, text: string, reply: SlackReply): string | null {
  const body = reply.body;
  const summary = `${String(body.response_type)}: ${String(body.text).slice(0, 120)}`;
  if (body.response_type !== "in_channel") return summary;
  if (target === "minimal") return body.text === MINIMAL_REPLY_TEXT ? null : summary;
  if (kind === "invoice")
    return blockIds(body).includes("invoice_actions") && JSON.stringify(body.blocks).includes(text)
      ? null
      : summary;
  return blockIds(body).includes("paymethods_nav") ? null : summary;
}

/** Sends `count` commands, `concurrency` at a time, each waiting for its reply; stops at `deadline`. */
export async function drive(
  stack: Stack,
  target: BenchTarget,
  options: Options,
  first: number,
  count: number,
  deadline: number,
  invoiceIds: string[],
): Promise<Sample[]> {
  const samples: Sample[] = [];
  let sent = 0;
  const worker = async () => {
    while (sent < count && Date.now() < deadline) {
      const spec = commandFor(first + sent, options.users, invoiceIds);
      sent += 1;
      let ackMs: number | undefined;
      try {
        const ack = await stack.command(spec.text, { command: spec.command, userId: spec.userId });
        ackMs = ack.ms;
        if (ack.status !== 200) {
          samples.push({ kind: spec.kind, outcome: "not_acked", ackMs, detail: `HTTP ${ack.status}` });
          continue;
        }
        const reply = await stack.slack.waitForReply(ack.responseId, { timeoutMs: options.replyTimeoutMs });
        // The stand-in keeps every reply and each wait scans them all: drop the ones we have read.
        const index = stack.slack.replies.indexOf(reply);
        if (index >= 0) stack.slack.replies.splice(index, 1);
        const problem = classify(target, spec.kind, spec.text, reply);
        samples.push({
          kind: spec.kind,
          outcome: problem === null ? "ok" : "failed",
          ackMs,
          replyMs: reply.at - ack.sentAt,
          ...(problem === null ? {} : { detail: problem }),
        });
      } catch (error) {
        samples.push({
          kind: spec.kind,
          outcome: ackMs === undefined ? "not_acked" : "missing",
          ...(ackMs === undefined ? {} : { ackMs }),
          detail: error instanceof Error ? error.message : String(error),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return samples;
}
