import type { AllMiddlewareArgs, SlackEventMiddlewareArgs } from "@slack/bolt";
import type { AuditRecorder } from "../audit/index.js";
import type { InvoiceDeps } from "../invoices/deps.js";
import type { LinkBook } from "../links/book.js";
import type { Stores } from "../store/index.js";
import type { InFlight } from "../util/in-flight.js";

/** What Bolt gives an `app.function` listener: the run's inputs, `complete` and `fail` on its own token. */
export type StepArgs = SlackEventMiddlewareArgs<"function_executed"> & AllMiddlewareArgs;

/** What the steps use: the invoice use cases' own deps, the store's claimOnce, and shutdown's count. */
export type StepDeps = InvoiceDeps & {
  /** The workspace's registers (a step's optional `register` input). */
  stores: Pick<Stores, "registers">;
  /** The audit trail: a workflow's new invoice is recorded there. */
  audit: AuditRecorder;
  /** The store's claimOnce: true for one caller per key across replicas (KeyvStore.claimOnce). */
  claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
  /** Runs still being worked on; shutdown waits for them. */
  inFlight: InFlight;
  /** The payment links' records: a run's invoice is recorded before it is created. */
  links: LinkBook;
};

/** What a step's outputs may hold: Workflow Builder's text and true/false values. */
export type StepOutputs = Record<string, string | boolean>;

/** How a run ended: its outputs, or the sentence the workflow's people read, and the log line's facts. */
export type StepResult =
  | { done: true; outputs: StepOutputs; log: Record<string, unknown> }
  | { done: false; error: string; reason: string; log?: Record<string, unknown> };
