import { buildInvoiceList, LIST_PAGE_SIZE, type ListFilter, listMatches } from "../../blocks/invoice-list.js";
import type { SlackMessage } from "../../blocks/message.js";
import type { HistoryEntry } from "../../payments/history.js";
import type { Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { type ChosenRegister, withRegisterFooter } from "../workspace/register.js";
import { langFor } from "../workspace/settings.js";

/** Invoices read per history page when filtering, and how many pages at most (a bounded reply). */
const SCAN_PAGE = 50;
const SCAN_PAGES = 6;

/** One page of the list: `all` is the history's own page; a filter scans the newest pages. */
async function listPage(
  deps: Pick<ListenerDeps, "payments">,
  teamId: string,
  filter: ListFilter,
  page: number,
): Promise<{ entries: HistoryEntry[]; hasMore: boolean }> {
  if (filter === "all") {
    const history = await deps.payments.history(teamId, page, LIST_PAGE_SIZE);
    return {
      entries: history.entries,
      hasMore: history.hasNextPage ?? history.entries.length === LIST_PAGE_SIZE,
    };
  }
  const wanted = page * LIST_PAGE_SIZE + 1;
  const matches: HistoryEntry[] = [];
  for (let scan = 1; scan <= SCAN_PAGES && matches.length < wanted; scan += 1) {
    const history = await deps.payments.history(teamId, scan, SCAN_PAGE);
    matches.push(...history.entries.filter((entry) => listMatches(filter, entry.state)));
    if (history.entries.length < SCAN_PAGE || history.hasNextPage === false) break;
  }
  return {
    entries: matches.slice((page - 1) * LIST_PAGE_SIZE, page * LIST_PAGE_SIZE),
    hasMore: matches.length > page * LIST_PAGE_SIZE,
  };
}

/** `/invoice list` and its buttons: the page asked for, private unless shared. */
export async function invoiceListReply(
  deps: Pick<ListenerDeps, "payments" | "now" | "stores">,
  teamId: string,
  request: { filter: ListFilter; page: number; visibility: "private" | "channel"; sharedBy?: string },
  register?: ChosenRegister,
): Promise<Produced & { reply: SlackMessage }> {
  const [{ entries, hasMore }, lang] = await Promise.all([
    listPage(deps, register?.key ?? teamId, request.filter, request.page),
    langFor(deps, teamId),
  ]);
  const list = buildInvoiceList({
    teamId,
    register: register?.several ? register.name : undefined,
    filter: request.filter,
    page: request.page,
    entries,
    hasMore,
    fetchedAt: deps.now(),
    visibility: request.visibility,
    sharedBy: request.sharedBy,
    lang,
  });
  const reply = register ? withRegisterFooter(list, register, lang) : list;
  return { reply, log: { outcome: "ok", upstreamStatus: 200, invoices: entries.length } };
}
