import type { webApi } from "@slack/bolt";
import type { SlackVoteRefusal } from "../../blocks/payout-replies.js";
import { showPayout } from "../../payouts/notices.js";
import { PAYOUT_FAMILY } from "../../payouts/request-model.js";
import type { ListenerDeps } from "../deps.js";
import { checkPeople } from "./payout-people.js";

/**
 * Whether the person clicking is a full member now (not a guest, an app or deactivated), asked of
 * Slack at the moment of the click; undefined when they are. Slack not answering refuses too.
 */
export async function personRefusal(
  client: webApi.WebClient,
  user: string,
): Promise<SlackVoteRefusal | undefined> {
  const checked = await checkPeople(client, [user]);
  if (checked.ok) return undefined;
  return { kind: "unchecked" in checked ? "unchecked" : "not_a_member" };
}

/**
 * After a vote or a cancel: the cards updated at once with the clicker's client (a repeat is
 * harmless), and the request made due now, so the worker sends it, cancels its quote or tells its
 * end under its claim.
 */
export async function showAfterVote(
  deps: Pick<ListenerDeps, "payouts" | "now">,
  client: webApi.WebClient,
  id: string,
): Promise<void> {
  const { board, logger } = deps.payouts;
  await showPayout({ board, slack: async () => client, logger }, id, false);
  await board.nudge(PAYOUT_FAMILY, id, deps.now().getTime());
}
