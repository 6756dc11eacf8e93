import type { App } from "@slack/bolt";
import type { ListenerDeps } from "./deps.js";
import { ListenerRouter } from "./router.js";
import { ROUTES } from "./routes.js";

/** Slack redelivers an event for up to about 5 minutes after the first try; remember it for an hour. */
export const EVENT_DELIVERY_MEMORY_MS = 60 * 60 * 1000;

/** Four Bolt listeners, one each for the commands, the buttons, the modal submissions and the events. */
export function registerListeners(app: App, deps: ListenerDeps): void {
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
  router.routeAll(ROUTES, deps);
  router.mount(app);
}
