import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { REGISTERS_TEXT, type RegisterLine } from "../i18n/registers.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { escapeMrkdwn, truncate } from "./mrkdwn.js";

export type { RegisterLine };

/** `/invoice status` in a workspace with several registers: each one's state, who connected it, where used. */
export function registerListBlock(lines: readonly RegisterLine[], lang: Lang = "en"): types.SectionBlock {
  const t = REGISTERS_TEXT[lang];
  return {
    type: "section",
    text: {
      type: "mrkdwn",
      text: truncate(
        [t.listHeading, ...lines.map((line) => t.listLine(line))].join("\n"),
        LIMITS.sectionText,
      ),
    },
  };
}

/**
 * A feed's or a digest's message of one of several registers: its last line says which (Block Kit
 * allows 50 blocks; a message already that long keeps its own last one). No name: as it was.
 */
export function withRegisterLine(message: SlackMessage, name: string | undefined, lang: Lang): SlackMessage {
  if (name === undefined) return message;
  const line: types.ContextBlock = {
    type: "context",
    elements: [{ type: "mrkdwn", text: REGISTERS_TEXT[lang].feedOf(escapeMrkdwn(name)) }],
  };
  const text = truncate(`${name} · ${message.text}`, LIMITS.fallbackText);
  return message.blocks.length >= 50
    ? { ...message, text }
    : { ...message, text, blocks: [...message.blocks, line] };
}
