import type { webApi } from "@slack/bolt";
import { auditCsv, auditJsonLines, collectEntries } from "../../audit/export.js";
import { ephemeral } from "../../blocks/replies.js";
import { AUDIT_TEXT } from "../../i18n/audit.js";
import type { Lang } from "../../i18n/lang.js";
import { directChannel, UploadError, uploadFile } from "../../slack/files.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";

/**
 * `/invoice audit export [period]` (admins; the caller checked): the period's entries, oldest first,
 * as CSV and JSON Lines in the asker's direct messages with Kassa, every field with each entry's
 * hash and previous hash. Recorded as `export.asked`.
 */
export async function auditExport(
  deps: Pick<ListenerDeps, "audit">,
  client: webApi.WebClient,
  asker: { teamId: string; userId: string },
  range: { from?: number; to?: number; label: string; name: string },
  lang: Lang,
  note: Note,
): Promise<Produced> {
  const t = AUDIT_TEXT[lang];
  const { entries, truncated } = await collectEntries(deps.audit, asker.teamId, range);
  note({ audit: { object: `audit export ${range.name}`, after: { entries: entries.length } } });
  try {
    const channel = await directChannel(client, asker.userId);
    const file = (bytes: string, ext: string) =>
      uploadFile(client, {
        bytes: Buffer.from(bytes, "utf8"),
        filename: `kassa-audit-${asker.teamId}-${range.name}.${ext}`,
        title: `${t.title} · ${range.label}`,
        channel,
        ...(ext === "csv" ? { comment: t.exportComment(entries.length, range.label, truncated) } : {}),
      });
    await file(auditCsv(entries), "csv");
    await file(auditJsonLines(entries), "jsonl");
  } catch (error) {
    // Without files:write or im:write the admin is told how to allow it; anything else is a failure.
    if (!(error instanceof UploadError) || error.failure !== "missing_scope") throw error;
    return {
      reply: ephemeral(t.exportNeedsScope, t.exportNeedsScope),
      log: { outcome: "export_needs_scope" },
    };
  }
  const text = t.exportSent(entries.length, range.label);
  return { reply: ephemeral(text, text), log: { outcome: "export_started", export: "audit" } };
}
