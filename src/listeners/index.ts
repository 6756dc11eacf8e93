import type { App } from "@slack/bolt";
import { ADMIN_ACTIONS, CONNECT_VIEW } from "../blocks/admin.js";
import { INVOICE_ACTIONS, OPEN_PAYMENT_PAGE_ACTION } from "../blocks/invoice.js";
import { CREATE_INVOICE_VIEW } from "../blocks/invoice-create.js";
import { PAYMETHODS_ACTIONS } from "../blocks/paymethods.js";
import { WATCH_ACTIONS } from "../blocks/watch.js";
import { registerAdminActions } from "./actions/admin.js";
import { registerInvoiceActions } from "./actions/invoice.js";
import { registerLinkActions } from "./actions/links.js";
import { registerPaymethodsActions } from "./actions/paymethods.js";
import { registerWatchActions } from "./actions/watch.js";
import { BALANCE_COMMAND, registerBalanceCommand } from "./commands/balance.js";
import { INVOICE_COMMAND, registerInvoiceCommand } from "./commands/invoice.js";
import { PAYMETHODS_COMMAND, registerPaymethodsCommand } from "./commands/paymethods.js";
import type { ListenerDeps } from "./deps.js";
import { registerHomeEvents } from "./events/home.js";
import { registerLinkSharedEvents } from "./events/link-shared.js";
import { registerUninstallEvents } from "./events/uninstall.js";
import { ListenerRouter } from "./router.js";
import { registerConnectView } from "./views/connect.js";
import { registerCreateInvoiceView } from "./views/create-invoice.js";

// Kept here until the handlers in flight on other branches import ./deps.js themselves.
export type { ListenerDeps } from "./deps.js";

/** Slack redelivers an event for up to about 5 minutes after the first try; remember it for an hour. */
export const EVENT_DELIVERY_MEMORY_MS = 60 * 60 * 1000;

/** Everything the app answers; the manifest test checks manifest.yml declares exactly these. */
export const HANDLED = {
  commands: [INVOICE_COMMAND, PAYMETHODS_COMMAND, BALANCE_COMMAND],
  events: ["app_home_opened", "app_uninstalled", "tokens_revoked", "link_shared"],
  actions: [
    OPEN_PAYMENT_PAGE_ACTION,
    ...Object.values(INVOICE_ACTIONS),
    ...Object.values(WATCH_ACTIONS),
    ...Object.values(PAYMETHODS_ACTIONS),
    ...Object.values(ADMIN_ACTIONS),
  ],
  views: [CONNECT_VIEW, CREATE_INVOICE_VIEW],
} as const;

/** Five Bolt listeners: one each for the commands, the buttons, the two modals and the events. */
export function registerListeners(app: App, deps: ListenerDeps): void {
  registerConnectView(app, deps);
  registerCreateInvoiceView(app, deps);
  const router = new ListenerRouter(async (eventId) => {
    try {
      return await deps.claimOnce(`event:${eventId}`, EVENT_DELIVERY_MEMORY_MS);
    } catch (error) {
      // A store that cannot say: handling an event twice (idempotent clean-ups, a Home refresh)
      // beats dropping it.
      deps.logger.warn({ eventId, err: error }, "could not check an event for redelivery; handling it");
      return true;
    }
  });
  registerInvoiceCommand(router, deps);
  registerPaymethodsCommand(router, deps);
  registerBalanceCommand(router, deps);
  registerLinkActions(router);
  registerPaymethodsActions(router, deps);
  registerInvoiceActions(router, deps);
  registerWatchActions(router, deps);
  registerAdminActions(router, deps);
  registerHomeEvents(router, deps);
  registerUninstallEvents(router, deps);
  registerLinkSharedEvents(router, deps);
  router.mount(app);
}
