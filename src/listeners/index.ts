import type { App } from "@slack/bolt";
import { ADMIN_ACTIONS, CONNECT_VIEW } from "../blocks/admin.js";
import { INVOICE_ACTIONS, OPEN_PAYMENT_PAGE_ACTION, type ReplyVisibility } from "../blocks/invoice.js";
import { PAYMETHODS_ACTIONS, type PaymethodsPages } from "../blocks/paymethods.js";
import { WATCH_ACTIONS } from "../blocks/watch.js";
import type { Logger } from "../logger.js";
import type { ApiVersion } from "../payments/model.js";
import type { Stores } from "../store/index.js";
import type { RateLimiter } from "../store/rate-limit.js";
import type { WatchRegistry } from "../watch/watcher.js";
import type { WorkspacePayments } from "../workspace-payments.js";
import { registerAdminActions } from "./actions/admin.js";
import { registerInvoiceActions } from "./actions/invoice.js";
import { registerLinkActions } from "./actions/links.js";
import { registerPaymethodsActions } from "./actions/paymethods.js";
import { registerWatchActions } from "./actions/watch.js";
import { BALANCE_COMMAND, registerBalanceCommand } from "./commands/balance.js";
import { INVOICE_COMMAND, registerInvoiceCommand } from "./commands/invoice.js";
import { PAYMETHODS_COMMAND, registerPaymethodsCommand } from "./commands/paymethods.js";
import { registerHomeEvents } from "./events/home.js";
import { registerLinkSharedEvents } from "./events/link-shared.js";
import { registerUninstallEvents } from "./events/uninstall.js";
import type { InFlight } from "./in-flight.js";
import { ListenerRouter } from "./router.js";
import { registerConnectView } from "./views/connect.js";

/** What every listener may use; built once in app.ts. */
export type ListenerDeps = {
  payments: WorkspacePayments;
  /** The method list's pages, built once per list and view. */
  paymethodsPages: PaymethodsPages;
  stores: Pick<Stores, "credentials" | "settings" | "installations">;
  logger: Logger;
  /** PAYMENTS_TIMEOUT_MS, quoted in the "did not answer" reply. */
  timeoutMs: number;
  now: () => Date;
  /** REPLY_VISIBILITY: where /invoice cards go unless the workspace chose otherwise. */
  replyVisibility: ReplyVisibility;
  /** ADMIN_USER_IDS. */
  adminUserIds: string[];
  /** PAYMENTS_API_VERSION, for workspaces that did not choose one. */
  defaultApiVersion: ApiVersion;
  /** RATE_LIMIT_USER_PER_MIN / RATE_LIMIT_TEAM_PER_MIN, counted in the shared store. */
  rateLimiter: RateLimiter;
  /** Replies still being worked on; shutdown waits for them. */
  inFlight: InFlight;
  /** Live cards: starts and stops watches (the watcher itself runs apart from the listeners). */
  watches: WatchRegistry;
  /** The store's claimOnce: true for one caller per key across replicas (KeyvStore.claimOnce). */
  claimOnce: (key: string, ttlMs: number) => Promise<boolean>;
};

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
  views: [CONNECT_VIEW],
} as const;

/** Four Bolt listeners: one each for the commands, the buttons, the connect modal and the events. */
export function registerListeners(app: App, deps: ListenerDeps): void {
  registerConnectView(app, deps);
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
