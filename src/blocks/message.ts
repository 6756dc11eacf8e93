import type { types } from "@slack/bolt";

/** What `respond()` sends: the fallback text is always there (notifications, screen readers). */
export type SlackMessage = {
  response_type?: "in_channel" | "ephemeral";
  replace_original?: boolean;
  delete_original?: boolean;
  text: string;
  blocks: types.KnownBlock[];
};

/** On a private reply: the button that posts it for everyone (invoice cards, method lists). */
export function shareButton(actionId: string, value: string, label = "Share in channel"): types.Button {
  return {
    type: "button",
    action_id: actionId,
    style: "primary",
    text: { type: "plain_text", text: label },
    value,
  };
}
