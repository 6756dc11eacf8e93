import type { webApi } from "@slack/bolt";
import {
  disconnectConfirmMessage,
  notAllowedMessage,
  nothingToDisconnectMessage,
  statusMessage,
} from "../../blocks/admin.js";
import type { SlackMessage } from "../../blocks/message.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Outcome } from "../answer.js";
import type { ListenerDeps } from "../deps.js";
import { balanceVisibilityFor, invoiceCreatorsFor, openConnectModal, visibilityFor } from "../manage.js";
import { checkManager } from "../permissions.js";
import type { AdminAction } from "./invoice-text.js";

type AdminCommand = { teamId: string; userId: string; enterpriseId?: string | undefined; triggerId: string };

/** `/invoice connect | disconnect | status`. Returns the reply, or null when a modal answered. */
export async function runAdminCommand(
  deps: Pick<
    ListenerDeps,
    "adminUserIds" | "stores" | "logger" | "replyVisibility" | "watches" | "defaultApiVersion"
  >,
  client: webApi.WebClient,
  action: AdminAction,
  command: AdminCommand,
  outcome: Outcome,
): Promise<SlackMessage | null> {
  outcome.action = action;
  const who = { userId: command.userId, teamId: command.teamId, enterpriseId: command.enterpriseId };
  const manager = await checkManager(deps, client, who);
  outcome.manager = manager.why;

  if (action === "status") {
    const connection = await deps.stores.credentials.get(command.teamId);
    const [visibility, watched] = await Promise.all([
      visibilityFor(deps, command.teamId),
      deps.watches.count(command.teamId),
    ]);
    return statusMessage(connection, {
      defaultVersion: deps.defaultApiVersion,
      visibility,
      canManage: manager.allowed,
      watched,
      balanceVisibility: await balanceVisibilityFor(deps, command.teamId),
      invoiceCreators: await invoiceCreatorsFor(deps, command.teamId),
    });
  }
  if (!manager.allowed) {
    outcome.outcome = "not_allowed";
    return notAllowedMessage(
      action === "connect" ? "connect the cash register" : "disconnect the cash register",
    );
  }
  if (action === "connect") {
    try {
      await openConnectModal(deps, client, command.triggerId, { from: "command", t: command.teamId });
    } catch (error) {
      outcome.outcome = "modal_failed";
      outcome.modalError = (error as { data?: { error?: string } }).data?.error ?? (error as Error).message;
      return ephemeral(
        ":hourglass: The form could not be opened in time. Run `/invoice connect` again.",
        "The form could not be opened; run /invoice connect again.",
      );
    }
    outcome.outcome = "modal_opened";
    return null;
  }
  const connection = await deps.stores.credentials.get(command.teamId);
  if (!connection) return nothingToDisconnectMessage();
  outcome.outcome = "confirm_asked";
  return disconnectConfirmMessage(connection, command.teamId);
}
