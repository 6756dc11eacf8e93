/**
 * The demo's two cash registers in one workspace: a second register connected with the CLI, an
 * admin making it #shop-two's register, /balance in each channel showing its own, an invoice of the
 * second found from the first's channel (its card names the register), and /invoice status listing both.
 */
import { SANDBOX_TEAM } from "../sandbox/slack.js";
import type { Stack } from "../sandbox/stack.js";

type Show = (title: string, shown: string, reply: Record<string, unknown>) => void;

export const SHOP2_LOGIN = "shop2_register";
export const SHOP2_SECRET = "shop2-secret-5d1e07";
export const SHOP2_INVOICE = "902211400_ShopTwoOrder";

/** The second register's account and invoice at the sandbox service, and its own balance. */
export function shopTwoAtTheService(now = new Date()) {
  const moscow = (minutes: number) =>
    new Date(now.getTime() + 3 * 3600_000 + minutes * 60_000).toISOString().slice(0, 19).replace("T", " ");
  return {
    account: { [SHOP2_LOGIN]: SHOP2_SECRET },
    invoice: {
      id: SHOP2_INVOICE,
      state: "payed",
      currency: "RUB",
      amount: "4200.50",
      createdAt: moscow(-30),
      expiredAt: moscow(24 * 60),
      description: "Shop two: order 311",
      login: SHOP2_LOGIN,
    },
    balance: { code: "CARDRUBP2P", name: "Card RUB P2P", currency: "RUB", amount: "777.1", accuracy: 2 },
  };
}

export async function showRegisters(stack: Stack, admin: string, show: Show): Promise<void> {
  const added = await stack.cli(
    [
      "credentials",
      "set",
      "--team",
      SANDBOX_TEAM.id,
      "--register",
      "shop2",
      "--login",
      SHOP2_LOGIN,
      "--secret",
      "-",
    ],
    SHOP2_SECRET,
  );
  if (added.code !== 0) throw new Error(`could not connect the second register: ${added.stderr}`);
  stack.fake.balancesOf.set(SHOP2_LOGIN, [shopTwoAtTheService().balance]);
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
