import type { Lang } from "../i18n/lang.js";
import { REISSUE_TEXT } from "../i18n/reissue.js";
import { linkButton } from "./button-values.js";
import { slackDateFromEpoch } from "./format.js";
import { LINK_ACTIONS } from "./ids.js";
import { LIMITS } from "./limits.js";
import type { SlackMessage } from "./message.js";
import { inlineCode, truncate } from "./mrkdwn.js";

// Re-issue's warning (issue 51): the old link still works until it expires; Re-issue anyway makes
// the new one now (the same button, its value saying the asker was warned).

/** The warning, with Re-issue anyway; the expiry shown in each reader's own timezone (a Slack date). */
export function reissueEarlyMessage(
  given: {
    invoiceId: string;
    expiresAtSeconds: number;
    link: { t: string; k: string; r?: string | undefined };
  },
  lang: Lang,
): SlackMessage {
  const t = REISSUE_TEXT[lang];
  const { link } = given;
  const text = t.early(inlineCode(given.invoiceId), slackDateFromEpoch(given.expiresAtSeconds, lang));
  return {
    response_type: "ephemeral",
    text: t.earlyFallback(given.invoiceId),
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) } },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            action_id: LINK_ACTIONS.reissue,
            text: { type: "plain_text", text: t.anyway },
            style: "danger",
            value: linkButton.write({ t: link.t, k: link.k, ...(link.r ? { r: link.r } : {}), e: 1 }),
          },
        ],
      },
    ],
  };
}
