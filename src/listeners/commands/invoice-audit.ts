import type { webApi } from "@slack/bolt";
import { AUDIT_PAGE, type AuditPeriod, auditListMessage, auditVerifyMessage } from "../../blocks/audit.js";
import { ephemeral } from "../../blocks/replies.js";
import { AUDIT_TEXT } from "../../i18n/audit.js";
import type { Lang } from "../../i18n/lang.js";
import type { ListenerDeps } from "../deps.js";
import type { LogContext, Produced } from "../shared/outcome.js";
import { checkManager, type ManagerDeps } from "../shared/permissions.js";
import { auditChannel } from "./invoice-audit-channel.js";
import { auditExport } from "./invoice-audit-export.js";
import type { AuditOp } from "./invoice-text.js";

type AuditAsker = { teamId: string; userId: string; enterpriseId?: string | undefined; channelId: string };
type AuditRequest = { op: AuditOp; period: AuditPeriod; what: string | null };

/** Entries read to find a page of one subject's (the filter is applied to what was read). */
const SCAN = 200;
const DAY_MS = 86_400_000;

/**
 * `/invoice audit [today|7d|30d] [what]` and `/invoice audit verify` (admins): the workspace's audit
 * trail in words, newest first, or whether its chain holds. A member's try is refused, and that
 * refusal is itself recorded (listeners/shared/audit.ts: not_allowed).
 */
export async function auditCommand(
  deps: ManagerDeps & Pick<ListenerDeps, "audit" | "now">,
  client: webApi.WebClient,
  asker: AuditAsker,
  request: AuditRequest,
  lang: Lang,
  noted: LogContext,
): Promise<Produced> {
  noted.action =
    request.op === "list"
      ? `audit ${request.period}${request.what ? ` ${request.what}` : ""}`
      : `audit ${request.op.replace("_", " ")}${request.op === "export" ? ` ${request.period}` : ""}`;
  const manager = await checkManager(deps, client, asker);
  noted.manager = manager.why;
  if (!manager.allowed) {
    const text = AUDIT_TEXT[lang].notAllowed;
    return { reply: ephemeral(text, text), log: { outcome: "not_allowed" } };
  }
  if (request.op === "channel" || request.op === "channel_off")
    return auditChannel(deps, asker, request.op === "channel", lang, noted);
  if (request.op === "export") {
    const from = periodStart(request.period, deps.now());
    const label = AUDIT_TEXT[lang].periods[request.period];
    const range = { ...(from === undefined ? {} : { from }), label, name: request.period };
    return auditExport(deps, client, asker, range, lang, noted);
  }
  if (request.op === "verify") {
    const result = await deps.audit.verify(asker.teamId);
    return { reply: auditVerifyMessage(result, lang), log: { outcome: "ok" } };
  }
  const from = periodStart(request.period, deps.now());
  const page = await deps.audit.list(asker.teamId, {
    ...(from === undefined ? {} : { from }),
    limit: request.what ? SCAN : AUDIT_PAGE,
  });
  const wanted = request.what;
  const entries = page.entries
    .filter((listed) => wanted === null || listed.entry?.action.startsWith(`${wanted}.`))
    .slice(0, AUDIT_PAGE);
  return { reply: auditListMessage(entries, request.period, lang), log: { outcome: "ok" } };
}

/** Where a period starts, in ms (UTC days: the trail's own times); undefined: all kept entries. */
function periodStart(period: AuditPeriod, now: Date): number | undefined {
  if (period === "all") return undefined;
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return period === "today" ? midnight : midnight - (period === "7d" ? 6 : 29) * DAY_MS;
}
