import type { types } from "@slack/bolt";
import { HOME_PAYOUTS_TEXT } from "../i18n/home-payouts.js";
import type { Lang } from "../i18n/lang.js";
import { PAYOUTS_TEXT, type PolicyFieldWord } from "../i18n/payouts.js";
import type { Recipient } from "../payout-recipients/model.js";
import type { PayoutPolicy } from "../payouts/policy.js";
import { LIMITS } from "./limits.js";
import { escapeMrkdwn, truncate } from "./mrkdwn.js";
import { recipientLine } from "./payout-recipients.js";
import { policyValueText } from "./payout-setup.js";

// App Home's payouts part (issue 52): for each register where payouts are on, who approves and by
// which rules (the two-approver amount, the trusted one-approver amount, each approver's limit), and
// its trusted recipients (label, method, wallet shortened, last paid), a few of them.

/** Trusted recipients App Home lists per register; the rest are counted, `/payout recipients` has them. */
export const HOME_RECIPIENTS_MAX = 10;
/** Block Kit's limit for a Home view. */
export const HOME_BLOCKS_MAX = 100;

const RULE_FIELDS: readonly PolicyFieldWord[] = [
  "channel",
  "approvers",
  "twoApproversFrom",
  "trustedOneBelow",
  "approverLimits",
];

/** A register where payouts are on: its policy and its trusted recipients (or that they could not be read). */
export type HomePayouts = {
  register: string;
  policy: PayoutPolicy;
  recipients: readonly Recipient[] | "unread";
};

const section = (text: string): types.SectionBlock => ({
  type: "section",
  text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) },
});

/**
 * The payouts part, after a divider: two sections per register (its rules, its trusted recipients),
 * within `budget` blocks; registers it has no room for are counted on a last line. None: no part.
 */
export function homePayoutBlocks(
  parts: readonly HomePayouts[],
  options: { several: boolean; budget: number; lang: Lang },
): types.KnownBlock[] {
  const { budget, lang } = options;
  if (parts.length === 0 || budget < 4) return [];
  const blocks: types.KnownBlock[] = [{ type: "divider" }];
  let shown = 0;
  for (const part of parts) {
    // This register's two sections, and a line for the registers after it if any are left.
    const after = parts.length - shown - 1 > 0 ? 1 : 0;
    if (blocks.length + 2 + after > budget) break;
    blocks.push(rulesSection(part, options.several, lang), recipientsSection(part, lang));
    shown += 1;
  }
  if (shown < parts.length)
    blocks.push({
      type: "context",
      elements: [{ type: "mrkdwn", text: HOME_PAYOUTS_TEXT[lang].moreRegisters(parts.length - shown) }],
    });
  return blocks;
}

/** Who approves, where, and by which rules. */
function rulesSection(part: HomePayouts, several: boolean, lang: Lang): types.SectionBlock {
  const t = HOME_PAYOUTS_TEXT[lang];
  const fields = PAYOUTS_TEXT[lang].fields;
  const title = several ? t.ofRegister(escapeMrkdwn(part.register)) : t.title;
  const lines = RULE_FIELDS.map(
    (field) => `• *${fields[field]}*: ${policyValueText(part.policy, field, lang)}`,
  );
  return section([title, ...lines].join("\n"));
}

/** The trusted recipients, the first HOME_RECIPIENTS_MAX of them, the others counted. */
function recipientsSection(part: HomePayouts, lang: Lang): types.SectionBlock {
  const t = HOME_PAYOUTS_TEXT[lang];
  if (part.recipients === "unread") return section(t.unread);
  const trusted = part.recipients.filter((one) => one.status === "trusted");
  if (trusted.length === 0) return section(`${t.recipientsTitle(0)}\n${t.noneTrusted}`);
  const lines = trusted.slice(0, HOME_RECIPIENTS_MAX).map((one) => recipientLine(one, lang));
  const more = trusted.length - HOME_RECIPIENTS_MAX;
  const moreLine = more > 0 ? [t.more(more)] : [];
  // Cut from the lines, never the count of those not shown.
  const body = truncate(lines.join("\n"), LIMITS.sectionText - 400);
  return section([t.recipientsTitle(trusted.length), body, ...moreLine].join("\n"));
}
