import type { types } from "@slack/bolt";

/** What `respond()` sends: the fallback text is always there (notifications, screen readers). */
export type SlackMessage = {
  response_type?: "in_channel" | "ephemeral";
  replace_original?: boolean;
  delete_original?: boolean;
  text: string;
  blocks: types.KnownBlock[];
};
