import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { REGISTERS_TEXT, type RegisterLine } from "../i18n/registers.js";
import { LIMITS } from "./limits.js";
import { truncate } from "./mrkdwn.js";

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
