import { describe, expect, it } from "vitest";
import type { SlackMessage } from "../../../src/blocks/message.js";
import { withImageFallback } from "../../../src/listeners/contexts/image-fallback.js";

const withImage: SlackMessage = {
  text: "report",
  blocks: [
    { type: "section", text: { type: "mrkdwn", text: "figures" } },
    { type: "image", slack_file: { id: "F0NOTYET" }, alt_text: "chart" },
  ],
};

describe("withImageFallback", () => {
  it("sends a refused reply again without its image, so the figures arrive", async () => {
    const sent: SlackMessage[] = [];
    const send = withImageFallback(async (message: SlackMessage) => {
      sent.push(message);
      if (message.blocks.some((block) => block.type === "image")) throw new Error("invalid_blocks");
      return "ok";
    });
    expect(await send(withImage)).toBe("ok");
    expect(sent.map((message) => message.blocks.length)).toEqual([2, 1]);
  });

  it("lets a refusal of a reply without images fail as it would", async () => {
    const send = withImageFallback(async () => {
      throw new Error("gone");
    });
    await expect(send({ text: "x", blocks: [] })).rejects.toThrow("gone");
  });
});
