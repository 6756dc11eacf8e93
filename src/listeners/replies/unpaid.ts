import type { SlackMessage } from "../../blocks/message.js";
import { buildUnpaidPage, UNPAID_PAGE_SIZE } from "../../blocks/unpaid.js";
import { unpaidPage } from "../../links/unpaid.js";
import { type PeriodName, periodBounds } from "../../reports/periods.js";
import type { Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { type ChosenRegister, withRegisterFooter } from "../workspace/register.js";
import { langFor } from "../workspace/settings.js";

export type UnpaidRequest = { period: PeriodName; customer: string | null; page: number };

/**
 * `/invoice unpaid` and its pages: the links Kassa made in the period (in the service's timezone)
 * that still wait for payment, the page's ones read at the service. Private to the asker.
 */
export async function unpaidReply(
  deps: Pick<ListenerDeps, "payments" | "now" | "stores" | "links" | "serviceTimeZone">,
  teamId: string,
  request: UnpaidRequest,
  register: ChosenRegister,
): Promise<Produced & { reply: SlackMessage }> {
  const now = deps.now();
  const bounds = periodBounds(request.period, now, deps.serviceTimeZone);
  const [result, lang] = await Promise.all([
    unpaidPage(deps, {
      registerKey: register.key,
      from: (bounds?.from ?? 0) * 1000,
      to: (bounds?.to ?? 0) * 1000,
      customer: request.customer ?? undefined,
      page: request.page,
      pageSize: UNPAID_PAGE_SIZE,
      now: now.getTime(),
    }),
    langFor(deps, teamId),
  ]);
  const page = buildUnpaidPage({
    teamId,
    register: register.several ? register.name : undefined,
    period: request.period,
    customer: request.customer ?? undefined,
    result,
    now: now.getTime(),
    lang,
  });
  const reply = withRegisterFooter(page, register, lang);
  return { reply, log: { outcome: "ok" } };
}
