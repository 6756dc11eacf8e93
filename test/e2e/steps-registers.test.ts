/**
 * The Workflow Builder steps in a workspace with two cash registers: Invoice status finds an invoice
 * in whichever register has it (or only in the one its Register input names), Create invoice creates
 * with the register named, and a name the workspace does not have fails the run saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN } from "../../sandbox/fake-payments.js";
import { connectShopTwo, SHOP2, shopTwoInvoice, twoRegisterService } from "../../sandbox/second-register.js";
import type { FunctionCompletion } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack, type StepRun } from "../../sandbox/stack.js";

const ADMIN = "U0ADMIN";
const SHOP2_LOGIN = SHOP2.login;
const SHOP2_INVOICE = "902211600_StepsShopTwo";

describe("workflow steps with two registers", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      fake: twoRegisterService([shopTwoInvoice(SHOP2_INVOICE, { amount: "321.5" })]),
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    await connectShopTwo(stack);
    // Workflows may create invoices here (the connect form's choice).
    const saved = await stack.submitView({
      view: {
        callback_id: "kassa_connect",
        private_metadata: JSON.stringify({ from: "command", t: SANDBOX_TEAM.id }),
      },
      values: {
        login: { value: SANDBOX_LOGIN },
        secret: { value: null },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
        workflow_creates: { selected: "on" },
      },
      userId: ADMIN,
    });
    expect(saved.json).toMatchObject({ response_action: "update" });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function run(step: StepRun): Promise<FunctionCompletion> {
    const sent = await stack.runStep(step);
    expect(sent.status).toBe(200);
    const [end] = await stack.slack.waitForCompletion(sent.executionId);
    if (!end) throw new Error("no completion");
    return end;
  }

  it("Invoice status finds the second register's invoice without being told where", async () => {
    const end = await run({ callbackId: "invoice_status", inputs: { invoice: SHOP2_INVOICE } });
    expect(end.outcome).toBe("success");
    expect(end.outputs).toMatchObject({
      invoice_id: SHOP2_INVOICE,
      state: "payed",
      amount: "321.5",
      currency: "RUB",
    });
  });

  it("Invoice status with a Register input reads that register only", async () => {
    const inMain = await run({
      callbackId: "invoice_status",
      inputs: { invoice: SHOP2_INVOICE, register: "main" },
    });
    expect(inMain.outcome).toBe("error");
    const inShop2 = await run({
      callbackId: "invoice_status",
      inputs: { invoice: SHOP2_INVOICE, register: "Shop2" },
    });
    expect(inShop2.outcome).toBe("success");
  });

  it("Create invoice creates with the register named; an unknown name fails the run, creating nothing", async () => {
    const before = stack.fake.requests.filter((r) => r.path.endsWith("/invoice/create/"));
    const created = await run({ callbackId: "create_invoice", inputs: { amount: "150", register: "shop2" } });
    expect(created.outcome).toBe("success");
    const creates = stack.fake.requests
      .filter((r) => r.path.endsWith("/invoice/create/"))
      .slice(before.length);
    expect(creates.map((r) => (r.body as { auth_login?: string }).auth_login)).toEqual([SHOP2_LOGIN]);
    const unknown = await run({ callbackId: "create_invoice", inputs: { amount: "150", register: "shop3" } });
    expect(unknown.outcome).toBe("error");
    expect(unknown.error).toContain('no cash register named "shop3"');
    expect(stack.fake.requests.filter((r) => r.path.endsWith("/invoice/create/")).length).toBe(
      before.length + 1,
    );
  });
});
