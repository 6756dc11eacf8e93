import type { webApi } from "@slack/bolt";
import {
  exportBusyMessage,
  exportNeedsScopeMessage,
  exportNotAllowedMessage,
  exportUnderWayMessage,
} from "../../blocks/export.js";
import { slackDateFromEpoch } from "../../blocks/format.js";
import { reportTitle } from "../../blocks/period-report.js";
import { invoiceUsageMessage } from "../../blocks/replies.js";
import type { ExportFormat } from "../../exports/file.js";
import { EXPORT_TEXT } from "../../i18n/export.js";
import type { Lang } from "../../i18n/lang.js";
import { NotConnectedError } from "../../payments/errors.js";
import { type PeriodName, periodBounds } from "../../reports/periods.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { readerZone } from "../replies/invoice-summary.js";
import { checkMoneyReader, type ManagerDeps } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";

/**
 * `/invoice export [period] [csv|xlsx]`: for those who may see the balance, every invoice of the
 * period as a file in their messages with Kassa; the reply here says it is under way (or why not:
 * not allowed, another export running and whose, Kassa may not send files).
 */
export async function runExportCommand(
  deps: ManagerDeps & Pick<ListenerDeps, "exports" | "now" | "serviceTimeZone" | "stores">,
  client: webApi.WebClient,
  command: {
    teamId: string;
    userId: string;
    enterpriseId?: string | undefined;
    register: ChosenRegister;
    lang: Lang;
  },
  request: { period: PeriodName; format: ExportFormat },
  note: Note,
): Promise<Produced> {
  note({ action: `export ${request.period} ${request.format}` });
  const { lang } = command;
  const { register } = command;
  if (!(await deps.stores.credentials.get(register.key))) throw new NotConnectedError(register.key);
  const reader = await checkMoneyReader(deps, client, command);
  note({ manager: reader.why });
  if (!reader.allowed) return { reply: exportNotAllowedMessage(lang), log: { outcome: "not_allowed" } };
  const zone = (await readerZone(client, command.userId)) ?? deps.serviceTimeZone;
  const bounds = periodBounds(request.period, deps.now(), zone);
  if (!bounds)
    return { reply: invoiceUsageMessage("summary_future", request.period, lang), log: { outcome: "usage" } };
  // Where there are several, the title (in every message and the file) and the file name say which.
  const registerName = register.several ? register.name : undefined;
  const period = reportTitle(request.period, lang);
  const title = registerName ? EXPORT_TEXT[lang].ofRegister(period, registerName) : period;
  // Still one export per workspace at a time, whichever register it reads.
  const start = await deps.exports.start(
    {
      teamId: command.teamId,
      userId: command.userId,
      bounds,
      format: request.format,
      lang,
      title,
      registerKey: register.key,
      registerName,
    },
    client,
  );
  if (start.started)
    return {
      reply: exportUnderWayMessage(title, request.format.toUpperCase(), lang),
      log: { outcome: "export_started", export: start.jobId },
    };
  if ("busy" in start) {
    const since = slackDateFromEpoch(Math.floor(start.busy.startedAt / 1000), lang);
    return { reply: exportBusyMessage(start.busy.by, since, lang), log: { outcome: "export_busy" } };
  }
  return { reply: exportNeedsScopeMessage(lang), log: { outcome: "export_needs_scope" } };
}
