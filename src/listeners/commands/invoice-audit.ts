import type { webApi } from "@slack/bolt";
import { auditPeriodRange } from "../../audit/periods.js";
import { auditPeriodLabel, auditVerifyMessage } from "../../blocks/audit.js";
import { ephemeral } from "../../blocks/replies.js";
import { AUDIT_TEXT } from "../../i18n/audit.js";
import type { Lang } from "../../i18n/lang.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { type AuditListQuery, auditListReply } from "../replies/audit-list.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { auditChannel } from "./invoice-audit-channel.js";
import { auditExport } from "./invoice-audit-export.js";
import type { AuditOp } from "./invoice-text.js";

type AuditAsker = { teamId: string; userId: string; enterpriseId?: string | undefined; channelId: string };
type AuditRequest = { op: AuditOp } & AuditListQuery;

/**
 * `/invoice audit [today|7d|30d|YYYY-MM] [@person] [what]` (admins): the workspace's audit trail in
 * words, newest first, with Older; `verify`: whether its chain holds; `export`: the entries as
 * files; `channel` (`off`): where its head is posted daily. A member's try is refused, and that
 * refusal is itself recorded (listeners/contexts/audit.ts: not_allowed).
 */
export async function auditCommand(
  deps: ManagerDeps & Pick<ListenerDeps, "audit" | "now">,
  client: webApi.WebClient,
  asker: AuditAsker,
  request: AuditRequest,
  lang: Lang,
  note: Note,
): Promise<Produced> {
  note({ action: auditAction(request) });
  const manager = await checkManager(deps, client, asker);
  note({ manager: manager.why });
  if (!manager.allowed) {
    const text = AUDIT_TEXT[lang].notAllowed;
    return { reply: ephemeral(text, text), log: { outcome: "not_allowed" } };
  }
  if (request.op === "channel" || request.op === "channel_off")
    return auditChannel(deps, asker, request.op === "channel", lang, note);
  if (request.op === "export") {
    const range = {
      ...auditPeriodRange(request.period, deps.now()),
      label: auditPeriodLabel(request.period, lang),
      name: request.period,
    };
    return auditExport(deps, client, asker, range, lang, note);
  }
  if (request.op === "verify") {
    const result = await deps.audit.verify(asker.teamId);
    return { reply: auditVerifyMessage(result, lang), log: { outcome: "ok" } };
  }
  return { reply: await auditListReply(deps, asker.teamId, request, lang), log: { outcome: "ok" } };
}

/** What was asked, for the log line and a refusal's entry ("audit 7d <@U1> payout", "audit verify"). */
function auditAction(request: AuditRequest): string {
  if (request.op === "export") return `audit export ${request.period}`;
  if (request.op !== "list") return `audit ${request.op.replace("_", " ")}`;
  const words = [request.period, request.person && `<@${request.person}>`, request.what];
  return `audit ${words.filter(Boolean).join(" ")}`;
}
