/**
 * The demo's two cash registers in one workspace: a second register connected with the CLI, an
 * admin making it #shop-two's register, /balance in each channel showing its own, an invoice of the
 * second found from the first's channel (its card names the register), and /invoice status listing both.
 */
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
  const status = await stack.ask("status", { userId: admin, channelId: "C0FINANCE" });
  show("/invoice status lists both registers", "/invoice status", status.reply.body);
}
