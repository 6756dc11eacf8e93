import type { types } from "@slack/bolt";

/** A button of a card: its text, action, value and style. */
export function button(
  text: string,
  actionId: string,
  value: string,
  style?: "primary" | "danger",
): types.Button {
  return {
    type: "button",
    text: { type: "plain_text", text },
    action_id: actionId,
    value,
    ...(style ? { style } : {}),
  };
}
