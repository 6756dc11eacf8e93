/**
 * A workspace's second cash register, `shop2`, as the tests and the demo set it up: its account at
 * the sandbox payment service (beside the sandbox register's), its own invoices there, and its
 * connection to the workspace through the operators' CLI.
 */
import {
  type FakePaymentsOptions,
  moscowTime,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  type SampleInvoice,
  sampleInvoices,
} from "./fake-payments.js";
import { SANDBOX_TEAM } from "./slack.js";
import type { Stack } from "./stack.js";

export const SHOP2 = { name: "shop2", login: "shop2_register", secret: "shop2-secret-5d1e07" } as const;

/** One of shop2's invoices (only shop2's login finds it): paid, in roubles, made 30 minutes ago. */
export function shopTwoInvoice(id: string, extra: Partial<SampleInvoice> = {}): SampleInvoice {
  const at = (minutes: number) => moscowTime(new Date(Date.now() + minutes * 60_000));
  return {
    id,
    state: "payed",
    type: "purchase",
    currency: "RUB",
    amount: "4200.50",
    createdAt: at(-30),
    expiredAt: at(24 * 60),
    ...extra,
    login: SHOP2.login,
  };
}

/** The sandbox service with both registers' accounts, the samples and shop2's own invoices. */
export function twoRegisterService(
  invoices: SampleInvoice[],
  options: FakePaymentsOptions = {},
): FakePaymentsOptions {
  return {
    ...options,
    accounts: { [SANDBOX_LOGIN]: SANDBOX_SECRET, [SHOP2.login]: SHOP2.secret },
    invoices: [...sampleInvoices(), ...invoices],
  };
}

/** Connects shop2 to the sandbox workspace with the CLI, as an operator would. */
export async function connectShopTwo(stack: Stack, secret: string = SHOP2.secret): Promise<void> {
  const added = await stack.cli(
    [
      "credentials",
      "set",
      "--team",
      SANDBOX_TEAM.id,
      "--register",
      SHOP2.name,
      "--login",
      SHOP2.login,
      "--secret",
      "-",
    ],
    secret,
  );
  if (added.code !== 0) throw new Error(`could not connect ${SHOP2.name}: ${added.stderr}`);
}
