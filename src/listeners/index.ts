import type { App } from "@slack/bolt";
import type { ReplyVisibility } from "../blocks/invoice.js";
import type { Logger } from "../logger.js";
import type { WorkspacePayments } from "../workspace-payments.js";
import { registerInvoiceActions } from "./actions/invoice.js";
import { registerLinkActions } from "./actions/links.js";
import { registerPaymethodsActions } from "./actions/paymethods.js";
import { registerInvoiceCommand } from "./commands/invoice.js";
import { registerPaymethodsCommand } from "./commands/paymethods.js";

/** What every listener may use; built once in app.ts. */
export type ListenerDeps = {
  payments: WorkspacePayments;
  logger: Logger;
  /** PAYMENTS_TIMEOUT_MS, quoted in the "did not answer" reply. */
  timeoutMs: number;
  now: () => Date;
  /** REPLY_VISIBILITY: where /invoice cards go. */
  replyVisibility: ReplyVisibility;
};

export function registerListeners(app: App, deps: ListenerDeps): void {
  registerInvoiceCommand(app, deps);
  registerPaymethodsCommand(app, deps);
  registerLinkActions(app);
  registerPaymethodsActions(app, deps);
  registerInvoiceActions(app, deps);
}
