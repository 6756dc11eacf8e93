import { randomBytes } from "node:crypto";
import Keyv from "keyv";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakePayments,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  startFakePayments,
} from "../../sandbox/fake-payments.js";
import { InvoiceNotFoundError, lookupInvoice } from "../../src/invoices/lookup.js";
import { chosenMethod } from "../../src/invoices/method.js";
import { PaymentsClient } from "../../src/payments/client.js";
import { ServiceError } from "../../src/payments/errors.js";
import { WorkspacePayments } from "../../src/registers/workspace-payments.js";
import { Cache } from "../../src/store/cache.js";
import { CredentialsStore } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";

const TEAM = "T0USECASE";
const WRONG_TEAM = "T0WRONGSECRET";

/** The invoice use cases against the sandbox payment service: no Slack anywhere. */
describe("invoice use cases (src/invoices), without Slack", () => {
  let fake: FakePayments;
  let client: PaymentsClient;
  let payments: WorkspacePayments;
  const lines: string[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });

  beforeAll(async () => {
    fake = await startFakePayments();
    client = new PaymentsClient({
      baseUrl: fake.url,
      defaultVersion: "v2",
      timeoutMs: 5000,
      timeZone: "Europe/Moscow",
      retries: 0,
    });
    const credentials = new CredentialsStore(new Keyv(), new SecretBox(randomBytes(32)));
    await credentials.set(TEAM, { login: SANDBOX_LOGIN, secret: SANDBOX_SECRET });
    await credentials.set(WRONG_TEAM, { login: SANDBOX_LOGIN, secret: "not-the-secret" });
    payments = new WorkspacePayments(credentials, client, new Cache(new Keyv()), {
      defaultVersion: "v2",
      methodsTtlMs: 60_000,
      balanceTtlMs: 60_000,
    });
  });
  afterAll(async () => {
    client.close();
    await fake.close();
  });

  it("lookupInvoice reads an invoice; an unknown id is InvoiceNotFoundError with the service's words", async () => {
    const invoice = await lookupInvoice({ logger, payments }, TEAM, "715308958_rPwTzvsvCm");
    expect(invoice).toMatchObject({ id: "715308958_rPwTzvsvCm", state: "notpayed" });
    const error = await lookupInvoice({ logger, payments }, TEAM, "000000000_NoSuchInvoice").catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(InvoiceNotFoundError);
    expect((error as InvoiceNotFoundError).invoiceId).toBe("000000000_NoSuchInvoice");
    expect((error as InvoiceNotFoundError).messages.join(" ")).toMatch(/not found/i);
  });

  it("lookupInvoice lets other refusals through, and logs an unknown state once", async () => {
    const error = await lookupInvoice({ logger, payments }, WRONG_TEAM, "715308958_rPwTzvsvCm").catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).not.toBeInstanceOf(InvoiceNotFoundError);
    await lookupInvoice({ logger, payments }, TEAM, "715308965_FutureState");
    await lookupInvoice({ logger, payments }, TEAM, "715308965_FutureState");
    expect(lines.filter((line) => line.includes("unknown invoice state"))).toHaveLength(1);
  });

  it("chosenMethod names the payer's method from the list; none chosen, none asked", async () => {
    const paid = await lookupInvoice({ logger, payments }, TEAM, "715308966_PaidBitcoin");
    expect(await chosenMethod({ payments }, TEAM, paid)).toMatchObject({ code: "BITCOIN", name: "Bitcoin" });
    const unpaid = await lookupInvoice({ logger, payments }, TEAM, "715308958_rPwTzvsvCm");
    const lists = fake.requests.filter((request) => request.path.endsWith("/method/list/")).length;
    expect(await chosenMethod({ payments }, TEAM, unpaid)).toBeUndefined();
    expect(fake.requests.filter((request) => request.path.endsWith("/method/list/")).length).toBe(lists);
  });
});
