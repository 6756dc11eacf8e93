import type { App } from "@slack/bolt";
import { createInvoiceStep } from "./create-invoice.js";
import type { StepDeps } from "./deps.js";
import { STEP_IDS } from "./inputs.js";
import { invoiceStatusStep } from "./invoice-status.js";

export type { StepDeps } from "./deps.js";
export { STEP_IDS, STEP_PARAMETERS } from "./inputs.js";

/**
 * Kassa's Workflow Builder steps as Bolt remote functions (manifest.yml `functions`, with
 * `function_runtime: remote`). Bolt acknowledges each function_executed event before the listener
 * runs (its autoAcknowledge) and hands it `complete` / `fail` on the run's own function token.
 */
export function registerSteps(app: App, deps: StepDeps): void {
  app.function(STEP_IDS.createInvoice, createInvoiceStep(deps));
  app.function(STEP_IDS.invoiceStatus, invoiceStatusStep(deps));
}
