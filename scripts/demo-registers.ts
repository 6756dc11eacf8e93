/**
 * The demo's two cash registers in one workspace: a second register connected with the CLI, an
 * admin making it #shop-two's register, /balance in each channel showing its own, an invoice of the
 * second found from the first's channel (its card names the register), #shop-two made shop2's payment
 * feed and a shop2 payment posted there (naming its register), and /invoice status listing both.
 */
import { moscowTime } from "../sandbox/fake-payments.js";
import { connectShopTwo, SHOP2, shopTwoInvoice } from "../sandbox/second-register.js";
import type { Stack } from "../sandbox/stack.js";

type Show = (title: string, shown: string, reply: Record<string, unknown>) => void;

export const SHOP2_INVOICE = "902211400_ShopTwoOrder";

/** shop2's invoice at the sandbox service. */
export const shopTwoInvoices = () => [shopTwoInvoice(SHOP2_INVOICE, { description: "Shop two: order 311" })];

export async function showRegisters(stack: Stack, admin: string, show: Show): Promise<void> {
  await connectShopTwo(stack);
  stack.fake.balancesOf.set(SHOP2.login, [
    { code: "CARDRUBP2P", name: "Card RUB P2P", currency: "RUB", amount: "777.1", accuracy: 2 },
  ]);
  const use = await stack.ask("use shop2", { userId: admin, channelId: "C0SHOPTWO" });
  show(
    "A second cash register, shop2 (connected with the CLI): an admin makes it #shop-two's register",
    "/invoice use shop2   (in #shop-two)",
    use.reply.body,
  );
  const own = await stack.ask("", { command: "/balance", userId: admin, channelId: "C0SHOPTWO" });
  show(
    "/balance in #shop-two shows shop2's balance, and says so",
    "/balance   (in #shop-two)",
    own.reply.body,
  );
  const main = await stack.ask("", { command: "/balance", userId: admin, channelId: "C0FINANCE" });
  show("…and in #finance, main's", "/balance   (in #finance)", main.reply.body);
  const card = await stack.ask(SHOP2_INVOICE, { userId: admin, channelId: "C0FINANCE" });
  show(
    "shop2's invoice asked for in #finance: main is asked first, then shop2, and the card names it",
    `/invoice ${SHOP2_INVOICE}   (in #finance)`,
    card.reply.body,
  );
  await showShopTwoFeed(stack, admin, show);
  const status = await stack.ask("status", { userId: admin, channelId: "C0FINANCE" });
  show(
    "/invoice status lists both registers, and the feed by register",
    "/invoice status",
    status.reply.body,
  );
}

/** #shop-two becomes shop2's payment feed; a payment of shop2 is posted there, naming its register. */
async function showShopTwoFeed(stack: Stack, admin: string, show: Show): Promise<void> {
  const ack = await stack.command("subscribe", { userId: admin, channelId: "C0SHOPTWO" });
  const reply = await stack.slack.waitForReply(ack.responseId, { count: 2 });
  show("In #shop-two, the feed is shop2's", "/invoice subscribe   (in #shop-two)", reply.body);
  const id = "902211401_ShopTwoFeed";
  stack.fake.invoices.set(
    id,
    shopTwoInvoice(id, {
      state: "notpayed",
      createdAt: moscowTime(new Date()),
      description: "Shop two: order 312",
    }),
  );
  await new Promise((resolve) => setTimeout(resolve, 2500)); // the feed sees it unpaid first
  stack.fake.pay(id);
  const posted = () =>
    [...stack.slack.messages.values()].find((m) => m.channel === "C0SHOPTWO" && m.text.includes(id));
  await stack.slack.waitForMessages(() => posted() !== undefined, 10_000);
  const message = posted();
  show(
    "shop2's customer pays: the payment is posted in shop2's feed only, naming the register",
    "(in #shop-two)",
    { response_type: "in_channel", text: message?.text, blocks: message?.blocks },
  );
}
