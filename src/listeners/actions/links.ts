import type { App } from "@slack/bolt";

/** Link buttons open their URL in the browser, but Slack still posts the click: acknowledge it. */
export function registerLinkActions(app: App): void {
  app.action("open_payment_page", async ({ ack }) => {
    await ack();
  });
}
