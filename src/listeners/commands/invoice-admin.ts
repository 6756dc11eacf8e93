import type { webApi } from "@slack/bolt";
import {
  disconnectConfirmMessage,
  notAllowedMessage,
  nothingToDisconnectMessage,
  statusMessage,
} from "../../blocks/admin.js";
import { ephemeral } from "../../blocks/replies.js";
import { instantStatus } from "../../callbacks/keys.js";
import { slackErrorCode } from "../../slack-error.js";
import type { ListenerDeps } from "../deps.js";
import { balanceVisibilityFor, invoiceCreatorsFor, openConnectModal, visibilityFor } from "../manage.js";
import type { LogContext, Produced } from "../outcome.js";
import { checkManager } from "../permissions.js";
import type { AdminAction } from "./invoice-text.js";

type AdminCommand = { teamId: string; userId: string; enterpriseId?: string | undefined; triggerId: string };

/** `/invoice connect | disconnect | status`: the reply (null when a modal answered) and its outcome. */
export async function runAdminCommand(
  deps: Pick<
    ListenerDeps,
    "adminUserIds" | "stores" | "logger" | "replyVisibility" | "watches" | "defaultApiVersion" | "callbacks"
  >,
  client: webApi.WebClient,
  action: AdminAction,
  command: AdminCommand,
  noted: LogContext,
): Promise<Produced> {
  noted.action = action;
  const who = { userId: command.userId, teamId: command.teamId, enterpriseId: command.enterpriseId };
  const manager = await checkManager(deps, client, who);
  noted.manager = manager.why;

  if (action === "status") {
    // Read without opening the secret: a secret sealed with another key is reported, not an error.
    const connection = await deps.stores.credentials.info(command.teamId);
    const instant = connection?.otherKey ? undefined : await instantStatus(deps.callbacks, connection);
    const [visibility, watched] = await Promise.all([
      visibilityFor(deps, command.teamId),
      deps.watches.count(command.teamId),
    ]);
    const reply = statusMessage(connection, {
      defaultVersion: deps.defaultApiVersion,
      visibility,
      canManage: manager.allowed,
      watched,
      balanceVisibility: await balanceVisibilityFor(deps, command.teamId),
      invoiceCreators: await invoiceCreatorsFor(deps, command.teamId),
      instant,
    });
    return { reply, log: { outcome: "ok" } };
  }
  if (!manager.allowed) {
    const reply = notAllowedMessage(
      action === "connect"
        ? "connect the cash register"
        : action === "rotate-callback"
          ? "change the payment notification address"
          : "disconnect the cash register",
    );
    return { reply, log: { outcome: "not_allowed" } };
  }
  if (action === "rotate-callback") return rotateCallback(deps, command.teamId);
  if (action === "connect") {
    try {
      await openConnectModal(deps, client, command.triggerId, { from: "command", t: command.teamId });
    } catch (error) {
      const reply = ephemeral(
        ":hourglass: The form could not be opened in time. Run `/invoice connect` again.",
        "The form could not be opened; run /invoice connect again.",
      );
      return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
    }
    return { reply: null, log: { outcome: "modal_opened" } };
  }
  const connection = await deps.stores.credentials.get(command.teamId);
  if (!connection) return { reply: nothingToDisconnectMessage(), log: { outcome: "ok" } };
  return { reply: disconnectConfirmMessage(connection, command.teamId), log: { outcome: "confirm_asked" } };
}

/** `/invoice callback rotate`: a new address; callbacks to the old one are refused from now on. */
async function rotateCallback(
  deps: Pick<ListenerDeps, "callbacks" | "stores">,
  teamId: string,
): Promise<Produced> {
  const connection = await deps.stores.credentials.get(teamId);
  const instant = await instantStatus(deps.callbacks, connection);
  if (!deps.callbacks || !instant || instant.kind !== "on") {
    const reply = ephemeral(
      ":information_source: Nothing was changed: this workspace has no payment notification address. `/invoice status` says why.",
      "No payment notification address to change.",
    );
    return { reply, log: { outcome: "ok" } };
  }
  const address = await deps.callbacks.rotate(teamId);
  const reply = ephemeral(
    `:white_check_mark: New payment notification address: \`${address}\`. The old one no longer works: put the new one wherever your own invoices or servers used the old one. Invoices created with \`/invoice new\` use it from now on.`,
    "The payment notification address was changed.",
  );
  return { reply, log: { outcome: "callback_rotated" } };
}
