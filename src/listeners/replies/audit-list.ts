import { type AuditPeriod, auditPeriodRange } from "../../audit/periods.js";
import { AUDIT_PAGE, auditListMessage } from "../../blocks/audit.js";
import { auditPageButton } from "../../blocks/button-values.js";
import type { SlackMessage } from "../../blocks/message.js";
import type { Lang } from "../../i18n/lang.js";
import type { ListenerDeps } from "../deps.js";

/** What a listing asks for: a period, an act's first word, a person, and (a later page) where it starts. */
export type AuditListQuery = {
  period: AuditPeriod;
  what: string | null;
  person: string | null;
  /** Entries before this number only (the Older button's cursor). */
  before?: number | undefined;
};

/** Entries read to find a page of one subject's (the filter is applied to what was read). */
const SCAN = 200;

/**
 * A page of the workspace's entries, newest first, with Older when more match: the trail narrows by
 * period and person itself; a subject is looked for among the next SCAN entries, so a page of a rare
 * subject may show fewer than a page's worth and still offer Older.
 */
export async function auditListReply(
  deps: Pick<ListenerDeps, "audit" | "now">,
  team: string,
  query: AuditListQuery,
  lang: Lang,
): Promise<SlackMessage> {
  const page = await deps.audit.list(team, {
    ...auditPeriodRange(query.period, deps.now()),
    ...(query.person ? { actor: query.person } : {}),
    ...(query.before ? { beforeSeq: query.before } : {}),
    limit: query.what ? SCAN : AUDIT_PAGE,
  });
  const wanted = query.what;
  const matching = page.entries.filter(
    (listed) => wanted === null || listed.entry?.action.startsWith(`${wanted}.`),
  );
  const entries = matching.slice(0, AUDIT_PAGE);
  // Past what is shown: the next matching entry (when more matched than fit), else past what was read.
  const next = matching.length > AUDIT_PAGE ? entries.at(-1)?.seq : page.next;
  const older =
    next === undefined
      ? undefined
      : auditPageButton.write({
          t: team,
          b: next,
          p: query.period,
          ...(query.what ? { w: query.what } : {}),
          ...(query.person ? { a: query.person } : {}),
        });
  return auditListMessage(entries, query.period, lang, { person: query.person ?? undefined, older });
}
