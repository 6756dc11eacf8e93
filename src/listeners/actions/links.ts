import type { ActionArgs } from "../router.js";

/** Link buttons open their URL in the browser, but Slack still posts the click: acknowledge it. */
export const openPaymentPage =
  () =>
  async ({ ack }: ActionArgs): Promise<void> => {
    await ack();
  };
