import type { SlackMessage } from "../blocks/message.js";
import {
  buildPaymethodsMessage,
  METHODS_PER_PAGE,
  type PaymethodsMessageOptions,
  type PaymethodsView,
  sortMethods,
} from "../blocks/paymethods.js";
import { filterMethods, filterText } from "../payments/method-filter.js";
import type { PaymentMethod } from "../payments/model.js";

/**
 * buildPaymethodsMessage, remembered per method list. A cached list is shown again and again (every
 * `/paymethods`, every page button) until it is refreshed, and building its page is most of the
 * work of a cached `/paymethods`. Keyed by the list object itself: a refreshed or re-read list is a
 * new object and starts empty, and the old list's pages are dropped with it. Messages handed out are
 * frozen, since the same object goes to many replies.
 */
export class PaymethodsPages {
  private readonly byList = new WeakMap<readonly PaymentMethod[], Map<string, SlackMessage | null>>();

  /** `maxViewsPerList` bounds what free-text filters can pile up for one list. */
  constructor(private readonly maxViewsPerList = 64) {}

  message(
    all: readonly PaymentMethod[],
    view: PaymethodsView,
    options: PaymethodsMessageOptions,
  ): SlackMessage | undefined {
    let pages = this.byList.get(all);
    if (!pages) {
      pages = new Map();
      this.byList.set(all, pages);
    }
    const key = JSON.stringify([
      view.filter.kind,
      filterText(view.filter),
      view.page,
      view.register ?? "",
      options.fetchedAt.getTime(),
      options.visibility ?? "channel",
      options.lang ?? "en",
      [...(options.notes ?? [])],
    ]);
    const known = pages.get(key);
    if (known !== undefined) return known ?? undefined;
    const built = buildPaymethodsMessage(all, view, options);
    if (pages.size >= this.maxViewsPerList) pages.clear();
    pages.set(key, built ? Object.freeze(built) : null);
    return built;
  }
}

/** The methods page `view` shows of `all` (whose switch records the page's notes read). */
export function methodsOnPage(all: readonly PaymentMethod[], view: PaymethodsView): PaymentMethod[] {
  const matching = sortMethods(filterMethods(all, view.filter));
  const pages = Math.max(1, Math.ceil(matching.length / METHODS_PER_PAGE));
  const page = Number.isFinite(view.page) ? Math.min(Math.max(1, Math.trunc(view.page)), pages) : 1;
  return matching.slice((page - 1) * METHODS_PER_PAGE, page * METHODS_PER_PAGE);
}
