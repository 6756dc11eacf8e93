import type { App } from "@slack/bolt";
import type { Logger } from "../logger.js";
import type { WorkspacePayments } from "../workspace-payments.js";
import { registerLinkActions } from "./actions/links.js";
import { registerInvoiceCommand } from "./commands/invoice.js";

/** What every listener may use; built once in app.ts. */
export type ListenerDeps = {
  payments: WorkspacePayments;
  logger: Logger;
  /** PAYMENTS_TIMEOUT_MS, quoted in the "did not answer" reply. */
  timeoutMs: number;
  now: () => Date;
};

export function registerListeners(app: App, deps: ListenerDeps): void {
  registerInvoiceCommand(app, deps);
  registerLinkActions(app);
}
