import type { Lang } from "../i18n/lang.js";
import { counted } from "../i18n/plural.js";
import { REPORT_TEXT } from "../i18n/report.js";
import { cancelReadButton } from "./button-values.js";
import { REPORT_ACTIONS } from "./ids.js";
import type { SlackMessage } from "./message.js";

/** A report still reading the history: what, how far, and Cancel (only the asker sees it). */
export function reportProgressMessage(input: {
  teamId: string;
  jobId: string;
  title: string;
  pages: number;
  invoices: number;
  lang: Lang;
}): SlackMessage {
  const t = REPORT_TEXT[input.lang];
  return {
    response_type: "ephemeral",
    replace_original: true,
    text: t.reading(input.title),
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `${t.reading(input.title)}\n${t.progress(counted(input.lang, input.pages, t.pages), counted(input.lang, input.invoices, t.invoices))}`,
        },
      },
      {
        type: "actions",
        elements: [
          {
            type: "button",
            action_id: REPORT_ACTIONS.cancel,
            text: { type: "plain_text", text: t.cancel },
            value: cancelReadButton.write({ t: input.teamId, j: input.jobId }),
          },
        ],
      },
    ],
  };
}

export function reportCancelledMessage(by: string, lang: Lang): SlackMessage {
  const t = REPORT_TEXT[lang];
  return {
    response_type: "ephemeral",
    replace_original: true,
    text: t.cancelledFallback,
    blocks: [{ type: "section", text: { type: "mrkdwn", text: t.cancelled(`<@${by}>`) } }],
  };
}
