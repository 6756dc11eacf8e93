import type { ListenerRouter } from "../router.js";

/** Link buttons open their URL in the browser, but Slack still posts the click: acknowledge it. */
export function registerLinkActions(router: ListenerRouter): void {
  router.action("open_payment_page", async ({ ack }) => {
    await ack();
  });
}
