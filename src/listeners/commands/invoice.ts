import { buildInvoiceMessage } from "../../blocks/invoice.js";
import type { SlackMessage } from "../../blocks/message.js";
import { invoiceHelpMessage, invoiceUsageMessage } from "../../blocks/replies.js";
import { deliverInvoiceCard } from "../../invoices/live-card.js";
import { lookupInvoice } from "../../invoices/lookup.js";
import { chosenMethod } from "../../invoices/method.js";
import type { ListenerDeps } from "../deps.js";
import { invoiceListReply } from "../replies/invoice-list.js";
import { invoiceSummaryReply } from "../replies/invoice-summary.js";
import type { CommandArgs } from "../router.js";
import { type AnswerDeps, answer } from "../shared/answer.js";
import { commandContext } from "../shared/command-context.js";
import { withImageFallback } from "../shared/image-fallback.js";
import { helpFactsFor, langFor, visibilityFor } from "../shared/manage.js";
import type { ManagerDeps } from "../shared/permissions.js";
import { runAdminCommand, runDigestCommand } from "./invoice-admin.js";
import { openCreateModal } from "./invoice-create.js";
import { runPeriodDigestCommand } from "./invoice-digest.js";
import { runExportCommand } from "./invoice-export.js";
import { feedFormCommand, subscribeFeed } from "./invoice-feed.js";
import { parseInvoiceText } from "./invoice-text.js";

export const INVOICE_COMMAND = "/invoice";

/**
 * The invoice's chosen method from the workspace's method list (its name and currency for the
 * card): cached, or read within a short budget; undefined otherwise, never an error.
 */
export const invoiceCommand =
  (
    deps: AnswerDeps &
      ManagerDeps &
      Pick<
        ListenerDeps,
        | "payments"
        | "now"
        | "replyVisibility"
        | "watches"
        | "defaultApiVersion"
        | "callbacks"
        | "feeds"
        | "serviceTimeZone"
        | "exports"
        | "history"
        | "cancels"
        | "digests"
      >,
  ) =>
  async ({ command, ack, respond, client }: CommandArgs): Promise<void> => {
    // Slack gives up after 3 s: acknowledge before any I/O, answer through response_url afterwards.
    await ack();
    const context = commandContext(deps, client, INVOICE_COMMAND, command);
    // Once a long read showed its progress, whatever comes next (the report, a failure) replaces it.
    let progressShown = false;
    const progress = (message: SlackMessage) => {
      progressShown = true;
      return respond(message);
    };
    const reply = withImageFallback((message: SlackMessage) =>
      respond(progressShown ? { ...message, replace_original: true } : message),
    );
    await answer(deps, context, reply, async (noted) => {
      const request = parseInvoiceText(command.text);
      const lang = await langFor(deps, command.team_id);
      if (request.kind === "help") {
        return {
          reply: invoiceHelpMessage(await helpFactsFor(deps, command.team_id), lang),
          log: { outcome: "help" },
        };
      }
      if (request.kind === "invalid") {
        return { reply: invoiceUsageMessage(request.reason, request.input, lang), log: { outcome: "usage" } };
      }
      if (request.kind === "admin") {
        return runAdminCommand(
          deps,
          client,
          request.action,
          {
            teamId: command.team_id,
            userId: command.user_id,
            enterpriseId: command.enterprise_id,
            triggerId: command.trigger_id,
            channelId: command.channel_id,
          },
          noted,
        );
      }
      const asker = {
        teamId: command.team_id,
        userId: command.user_id,
        enterpriseId: command.enterprise_id,
        channelId: command.channel_id,
        triggerId: command.trigger_id,
      };
      if (request.kind === "subscribe") return subscribeFeed(deps, client, asker, request.words, noted);
      if (request.kind === "feed") return feedFormCommand(deps, client, asker, noted);
      if (request.kind === "digest" && request.cadence !== "daily") {
        noted.action = `digest ${request.cadence}`;
        return runPeriodDigestCommand(deps, client, {
          teamId: command.team_id,
          userId: command.user_id,
          enterpriseId: command.enterprise_id,
          channelId: command.channel_id,
          at: request.at,
          cadence: request.cadence,
        });
      }
      if (request.kind === "digest") {
        noted.action = "digest";
        return runDigestCommand(deps, client, {
          teamId: command.team_id,
          userId: command.user_id,
          enterpriseId: command.enterprise_id,
          channelId: command.channel_id,
          at: request.at,
        });
      }
      if (request.kind === "summary") {
        noted.action = `summary ${request.period}`;
        return invoiceSummaryReply(
          deps,
          client,
          { teamId: command.team_id, userId: command.user_id, enterpriseId: command.enterprise_id },
          request.period,
          progress,
        );
      }
      if (request.kind === "export") {
        return runExportCommand(
          deps,
          client,
          { teamId: command.team_id, userId: command.user_id, enterpriseId: command.enterprise_id },
          request,
          noted,
        );
      }
      if (request.kind === "list") {
        noted.filter = request.filter;
        return invoiceListReply(deps, command.team_id, {
          filter: request.filter,
          page: 1,
          visibility: "private",
        });
      }
      if (request.kind === "create") {
        return openCreateModal(
          deps,
          client,
          {
            teamId: command.team_id,
            userId: command.user_id,
            enterpriseId: command.enterprise_id,
            channelId: command.channel_id,
            triggerId: command.trigger_id,
          },
          request.prefill,
          noted,
        );
      }
      noted.invoice = request.invoiceId;
      const invoice = await lookupInvoice(deps, command.team_id, request.invoiceId);
      const visibility = await visibilityFor(deps, command.team_id);
      const card = buildInvoiceMessage(invoice, {
        now: deps.now(),
        teamId: command.team_id,
        visibility,
        method: await chosenMethod(deps, command.team_id, invoice),
        lang,
      });
      const reply = await deliverInvoiceCard(
        deps,
        client,
        { teamId: command.team_id, userId: command.user_id, channelId: command.channel_id },
        invoice,
        card,
        visibility,
        noted,
        { lang },
      );
      return { reply, log: { outcome: "ok", upstreamStatus: 200, state: invoice.state } };
    });
  };
