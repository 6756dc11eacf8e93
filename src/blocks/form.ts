import type { types } from "@slack/bolt";
import { truncate } from "./mrkdwn.js";

/** The action id of every input in Kassa's modals; the view handlers read `values[block].value`. */
export const INPUT_ACTION_ID = "value";

/** A select option; Slack refuses option texts over 75 characters. */
export function selectOption(text: string, value: string): types.PlainTextOption {
  return { text: { type: "plain_text", text: truncate(text, 75) }, value };
}
