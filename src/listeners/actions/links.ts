import { OPEN_PAYMENT_PAGE_ACTION } from "../../blocks/invoice.js";
import type { ListenerRouter } from "../router.js";

/** Link buttons open their URL in the browser, but Slack still posts the click: acknowledge it. */
export function registerLinkActions(router: ListenerRouter): void {
  router.action(OPEN_PAYMENT_PAGE_ACTION, async ({ ack }) => {
    await ack();
  });
}
