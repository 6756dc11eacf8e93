import type { webApi } from "@slack/bolt";
import type { SlackMessage } from "../../blocks/message.js";
import { buildSummaryMessage } from "../../blocks/summary.js";
import { isTimeZone } from "../../config/values.js";
import { periodBounds, type SummaryPeriod, summarize } from "../../reports/summary.js";
import type { ListenerDeps } from "../deps.js";
import { langFor } from "../shared/manage.js";
import type { Produced } from "../shared/outcome.js";

/** How long the reader's timezone may take to learn (users.info); past it, the service's zone. */
const TZ_BUDGET_MS = 1000;

/** The reader's own timezone from Slack, or undefined (then the payment service's zone is used). */
export async function readerZone(client: webApi.WebClient, userId: string): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const info = await Promise.race([
      client.users.info({ user: userId }),
      new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), TZ_BUDGET_MS);
      }),
    ]);
    const tz = info?.user?.tz;
    return typeof tz === "string" && isTimeZone(tz) ? tz : undefined;
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** `/invoice summary [today|yesterday|7d]`: counted from the history, in the reader's timezone. */
export async function invoiceSummaryReply(
  deps: Pick<ListenerDeps, "payments" | "now" | "serviceTimeZone" | "stores">,
  client: webApi.WebClient,
  teamId: string,
  userId: string,
  period: SummaryPeriod,
): Promise<Produced & { reply: SlackMessage }> {
  const zone = (await readerZone(client, userId)) ?? deps.serviceTimeZone;
  const bounds = periodBounds(period, deps.now(), zone);
  const summary = await summarize((page, items) => deps.payments.history(teamId, page, items), bounds);
  return {
    reply: buildSummaryMessage(summary, deps.now(), "asker", await langFor(deps, teamId)),
    log: { outcome: "ok", upstreamStatus: 200, invoices: summary.created + summary.test.created },
  };
}
