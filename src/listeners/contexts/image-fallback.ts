import type { SlackMessage } from "../../blocks/message.js";

/**
 * Sends a reply; one Slack refuses while it shows an uploaded image (a file Slack is still
 * processing is refused as invalid_blocks) goes again without its images, so the figures always
 * arrive. Replies without images fail as they would.
 */
export function withImageFallback<T>(
  send: (message: SlackMessage) => Promise<T>,
): (message: SlackMessage) => Promise<T> {
  return async (message) => {
    try {
      return await send(message);
    } catch (error) {
      const blocks = message.blocks.filter((block) => block.type !== "image");
      if (blocks.length === message.blocks.length) throw error;
      return send({ ...message, blocks });
    }
  };
}
