import type { App } from "@slack/bolt";
import { buildInvoiceMessage } from "../../blocks/invoice.js";
import type { SlackMessage } from "../../blocks/message.js";
import { invoiceHelpMessage, invoiceUsageMessage } from "../../blocks/replies.js";
import { newReference } from "../../logger.js";
import { replyForFailure } from "../error-reply.js";
import type { ListenerDeps } from "../index.js";
import { parseInvoiceText } from "./invoice-text.js";

export const INVOICE_COMMAND = "/invoice";

export function registerInvoiceCommand(app: App, deps: ListenerDeps): void {
  app.command(INVOICE_COMMAND, async ({ command, ack, respond }) => {
    // Slack gives up after 3 s: acknowledge before any I/O, answer through response_url afterwards.
    await ack();
    const started = performance.now();
    const log = deps.logger.child({ command: INVOICE_COMMAND, team: command.team_id, user: command.user_id });
    const request = parseInvoiceText(command.text);

    let reply: SlackMessage;
    const outcome: Record<string, unknown> = {};
    if (request.kind === "help") {
      reply = invoiceHelpMessage();
      outcome.outcome = "help";
    } else if (request.kind === "invalid") {
      reply = invoiceUsageMessage(request.reason, request.input);
      outcome.outcome = "usage";
    } else {
      outcome.invoice = request.invoiceId;
      try {
        const invoice = await deps.payments.invoice(command.team_id, request.invoiceId);
        reply = buildInvoiceMessage(invoice, { now: deps.now() });
        outcome.outcome = "ok";
        outcome.state = invoice.state;
      } catch (error) {
        const failure = replyForFailure(error, {
          teamId: command.team_id,
          timeoutMs: deps.timeoutMs,
          reference: newReference(),
        });
        reply = failure.message;
        outcome.outcome = failure.outcome;
        if (failure.upstreamStatus !== undefined) outcome.upstreamStatus = failure.upstreamStatus;
        if (failure.reference) {
          outcome.reference = failure.reference;
          outcome.err = error;
        }
      }
    }

    try {
      await respond(reply);
    } catch (error) {
      outcome.replyFailed = error instanceof Error ? error.message : String(error);
    }
    outcome.latencyMs = Math.round(performance.now() - started);
    const failed = outcome.reference !== undefined || outcome.replyFailed !== undefined;
    log[failed ? "error" : "info"](outcome, "command handled");
  });
}
