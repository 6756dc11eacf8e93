import type { webApi } from "@slack/bolt";
import type { SlackVoteRefusal } from "../../blocks/payout-replies.js";
import { checkPeople } from "./people.js";

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
