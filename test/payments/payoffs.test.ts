import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakePayments, startFakePayments } from "../../sandbox/fake-payments.js";
import { PaymentsClient } from "../../src/payments/client.js";
import { UnexpectedResponseError, UnreachableError } from "../../src/payments/errors.js";
import type { ApiVersion } from "../../src/payments/model.js";
import {
  PayoffDraftError,
  PayoffMismatchError,
  type PayoffRefusal,
  PayoffRefusedError,
} from "../../src/payments/payoff-errors.js";
import {
  changedTerms,
  feeFiguresAgree,
  type PayoffAccount,
  type PayoffDraft,
} from "../../src/payments/payoff-model.js";

const LOGIN = "shop_register";
const SECRET = "Sekr3t-9d41f0c7-do-not-leak";
const SALT = "Salt2-77c1e0d9-do-not-leak";
const WRONG_SALT = "Wr0ng-Salt2-1a2b3c4d-do-not-leak";
const WALLET = "2200700012345678";

let fake: FakePayments;

beforeEach(async () => {
  fake = await startFakePayments({ accounts: { [LOGIN]: SECRET }, salts: { [LOGIN]: SALT }, slowMs: 1500 });
});

afterEach(async () => {
  await fake.close();
});

function client(version: ApiVersion, timeoutMs = 2000): PaymentsClient {
  return new PaymentsClient({
    baseUrl: fake.url,
    defaultVersion: version,
    timeoutMs,
    timeZone: "Europe/Moscow",
    retryDelayMs: 10,
  });
}

const account = (version: ApiVersion, salt = SALT): PayoffAccount => ({
  login: LOGIN,
  secret: SECRET,
  salt,
  apiVersion: version,
});

const draft = (fields: Partial<PayoffDraft> = {}): PayoffDraft => ({
  amount: "1500.10",
  method: "CARDRUBP2P",
  wallet: WALLET,
  subtractFrom: "balance",
  ...fields,
});

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex");
const calls = (path: string) => fake.requests.filter((request) => request.path.endsWith(`/${path}/`));
const balanceOf = (code: string) => fake.balances.find((balance) => balance.code === code)?.amount;

/** Awaits a call that must fail with `type`; the error carries neither secret nor Secret 2. */
async function failure<T extends Error>(
  promise: Promise<unknown>,
  type: new (...args: never[]) => T,
): Promise<T> {
  const caught = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(caught).toBeInstanceOf(type);
  const text = `${String(caught)} ${JSON.stringify(caught)} ${(caught as Error).stack ?? ""}`;
  for (const secret of [SECRET, SALT, WRONG_SALT]) expect(text).not.toContain(secret);
  return caught as T;
}

async function refused(promise: Promise<unknown>, reason: PayoffRefusal): Promise<PayoffRefusedError> {
  const error = await failure(promise, PayoffRefusedError);
  expect(error.reason).toBe(reason);
  expect(error.kind).toBe("service");
  return error;
}

describe.each(["v2", "v3"] as const)("payout calls against the sandbox (%s)", (version) => {
  const other = version === "v2" ? "v3" : "v2";

  it("creates a quote signed over the amount exactly as sent, with both versions' figures", async () => {
    const quote = await client(version).createPayoff(account(version), draft({ extra: "supplier 42" }));
    const sent = calls("payoff/create")[0];
    expect(sent?.path).toBe(`/${version}/payoff/create/`);
    expect(sent?.body).toMatchObject({ amount: "1500.10", method: "CARDRUBP2P", wallet: WALLET });
    expect(sent?.body?.signature).toBe(sha1(`1500.10:CARDRUBP2P:${WALLET}:${SALT}`));
    expect(sent?.body?.signature).not.toBe(sha1(`1500.1:CARDRUBP2P:${WALLET}:${SALT}`));
    expect(quote).toMatchObject({
      state: "created",
      source: "quote",
      method: "CARDRUBP2P",
      subtractFrom: "balance",
      currency: "RUB",
      amount: { value: "1500.1", currency: "RUB" },
      fee: { value: "15", currency: "RUB" },
      receives: { value: "1500.1", currency: "RUB" },
      leavesBalance: { value: "1515.1", currency: "RUB" },
      rubAmount: { value: "1500.1", currency: "RUB" },
      createdAt: null,
      apiVersion: version,
    });
    // v2's create answer names no wallet; v3's does.
    expect(quote.wallet).toBe(version === "v3" ? WALLET : null);
    expect(feeFiguresAgree(quote)).toBe(true);
  });

  it("takes the fee from the amount when asked: the recipient gets less, the balance loses the amount", async () => {
    const quote = await client(version).createPayoff(account(version), draft({ subtractFrom: "amount" }));
    expect(quote.receives).toEqual({ value: "1485.1", currency: "RUB" });
    expect(quote.leavesBalance).toEqual({ value: "1500.1", currency: "RUB" });
    expect(feeFiguresAgree(quote)).toBe(true);
    expect(feeFiguresAgree({ ...quote, fee: { value: "15.01", currency: "RUB" } })).toBe(false);
  });

  it("keeps 0.00000001 exact through both versions (v2 writes it as 1.0e-8)", async () => {
    const payments = client(version);
    const quote = await payments.createPayoff(
      account(version),
      draft({ amount: "0.00000001", method: "BTCCRYPTOBOT", wallet: "bc1qexample" }),
    );
    expect(calls("payoff/create")[0]?.body?.amount).toBe("0.00000001");
    expect(quote.amount).toEqual({ value: "0.00000001", currency: "BTC" });
    expect(quote.leavesBalance).toEqual({ value: "0.00000001", currency: "BTC" });
    const info = await payments.payoffInfo(account(version), quote.id);
    expect(info.amount.value).toBe("0.00000001");
  });

  it("follows created -> processing -> payed, taking the money at submit", async () => {
    const payments = client(version);
    const quote = await payments.createPayoff(account(version), draft({ callbackUrl: "" }));
    const created = await payments.payoffInfo(account(version), quote.id);
    expect(created).toMatchObject({ id: quote.id, state: "created", source: "info", wallet: WALLET });
    expect(created.createdAt?.text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(balanceOf("CARDRUBP2P")).toBe("12345.67");

    const submitted = await payments.submitPayoff(account(version), quote.id);
    expect(submitted.state).toBe("processing");
    expect(calls("payoff/submit")[0]?.body?.signature).toBe(sha1(`${quote.id}:${SALT}`));
    expect(balanceOf("CARDRUBP2P")).toBe("10830.57");

    fake.payoffs.finish(quote.id, "payed", "https://explorer.example/tx/abc");
    const paid = await payments.payoffInfo(account(version), quote.id);
    expect(paid.state).toBe("payed");
    expect(paid.message).toBe("https://explorer.example/tx/abc");
    if (version === "v3") expect(paid.finalAt).not.toBeNull();
    else expect(paid.finalAt).toBeNull();
    expect(fake.payoffs.submits).toEqual([quote.id]);
  });

  it("gives a failed payout's money back and says why", async () => {
    const payments = client(version);
    const quote = await payments.createPayoff(account(version), draft());
    await payments.submitPayoff(account(version), quote.id);
    fake.payoffs.finish(quote.id, "failed", "Wallet does not exist");
    const failed = await payments.payoffInfo(account(version), quote.id);
    expect(failed).toMatchObject({ state: "failed", message: "Wallet does not exist" });
    expect(balanceOf("CARDRUBP2P")).toBe("12345.67");
  });

  it("refuses a second submit, and submit or cancel in any state but created", async () => {
    const payments = client(version);
    const first = await payments.createPayoff(account(version), draft());
    await payments.submitPayoff(account(version), first.id);
    await refused(payments.submitPayoff(account(version), first.id), "wrong-state");
    await refused(payments.cancelPayoff(account(version), first.id), "wrong-state");
    fake.payoffs.finish(first.id, "payed");
    await refused(payments.submitPayoff(account(version), first.id), "wrong-state");
    expect(fake.payoffs.submits).toEqual([first.id]);

    const second = await payments.createPayoff(account(version), draft());
    const canceled = await payments.cancelPayoff(account(version), second.id);
    expect(canceled).toMatchObject({ state: "canceled", message: "Canceled" });
    await refused(payments.cancelPayoff(account(version), second.id), "wrong-state");
    await refused(payments.submitPayoff(account(version), second.id), "wrong-state");
    expect((await payments.payoffInfo(account(version), second.id)).state).toBe("canceled");
  });

  it("is refused with a wrong Secret 2, and nothing happens at the service", async () => {
    const payments = client(version);
    await refused(payments.createPayoff(account(version, WRONG_SALT), draft()), "bad-signature");
    expect(fake.payoffs.all.size).toBe(0);
    const quote = await payments.createPayoff(account(version), draft());
    await refused(payments.submitPayoff(account(version, WRONG_SALT), quote.id), "bad-signature");
    await refused(payments.cancelPayoff(account(version, WRONG_SALT), quote.id), "bad-signature");
    expect((await payments.payoffInfo(account(version), quote.id)).state).toBe("created");
    expect(fake.payoffs.submits).toEqual([]);
  });

  it("classifies the service's refusals and keeps its words", async () => {
    const payments = client(version);
    const unknown = await refused(
      payments.createPayoff(account(version), draft({ method: "NOSUCH" })),
      "unknown-method",
    );
    expect(unknown.messages).toEqual(["Method not found"]);
    await refused(payments.createPayoff(account(version), draft({ method: "CARDTRYP2P" })), "unknown-method");
    await refused(payments.createPayoff(account(version), draft({ amount: "99.99" })), "limits");
    await refused(payments.createPayoff(account(version), draft({ amount: "150000.01" })), "limits");
    await refused(
      payments.createPayoff(account(version), draft({ method: "LZTMARKET", amount: "100.01" })),
      "insufficient-funds",
    );
    await refused(payments.payoffInfo(account(version), "810999999_nosuchpayout"), "not-found");
    await refused(payments.submitPayoff(account(version), "810999999_nosuchpayout"), "not-found");
    expect(fake.payoffs.all.size).toBe(0);
  });

  it("refuses at submit when the balance no longer covers it", async () => {
    const payments = client(version);
    const one = await payments.createPayoff(account(version), draft({ method: "LZTMARKET", amount: "60" }));
    const two = await payments.createPayoff(account(version), draft({ method: "LZTMARKET", amount: "60" }));
    await payments.submitPayoff(account(version), one.id);
    await refused(payments.submitPayoff(account(version), two.id), "insufficient-funds");
    expect((await payments.payoffInfo(account(version), two.id)).state).toBe("created");
    expect(balanceOf("LZTMARKET")).toBe("40");
  });

  it("sends nothing for a draft it could not sign exactly", async () => {
    const payments = client(version);
    const bad: Partial<PayoffDraft>[] = [
      { amount: "1e3" },
      { amount: "1500,10" },
      { amount: "-5" },
      { amount: "0" },
      { amount: " 100" },
      { amount: "0100" },
      { method: "CARD:RUB" },
      { wallet: ` ${WALLET}` },
      { wallet: "" },
    ];
    for (const fields of bad)
      await failure(payments.createPayoff(account(version), draft(fields)), PayoffDraftError);
    await failure(payments.createPayoff(account(version, ""), draft()), PayoffDraftError);
    await failure(payments.submitPayoff(account(version, ""), "810000001_abc"), PayoffDraftError);
    if (version === "v2")
      await failure(
        payments.createPayoff(account(version), draft({ walletExtra: "memo" })),
        PayoffDraftError,
      );
    expect(calls("payoff/create")).toEqual([]);
    expect(calls("payoff/submit")).toEqual([]);
  });

  it("never sends create or submit twice, even when the answer is lost", async () => {
    const payments = client(version);
    fake.payoffs.faults.create = "html502";
    await failure(payments.createPayoff(account(version), draft()), UnreachableError);
    expect(calls("payoff/create")).toHaveLength(1);
    expect(fake.payoffs.all.size).toBe(0);

    fake.payoffs.faults.create = "lostAnswer";
    await failure(payments.createPayoff(account(version), draft()), UnreachableError);
    expect(calls("payoff/create")).toHaveLength(2);
    expect(fake.payoffs.all.size).toBe(1);
    delete fake.payoffs.faults.create;

    const quote = await payments.createPayoff(account(version), draft());
    fake.payoffs.faults.submit = "lostAnswer";
    await failure(payments.submitPayoff(account(version), quote.id), UnreachableError);
    expect(calls("payoff/submit")).toHaveLength(1);
    // What a restart does: read before sending anything again.
    expect((await payments.payoffInfo(account(version), quote.id)).state).toBe("processing");
    expect(fake.payoffs.submits).toEqual([quote.id]);
  });

  it("retries info, a read, and fails on lying or broken answers", async () => {
    const payments = client(version);
    const quote = await payments.createPayoff(account(version), draft());
    fake.payoffs.faults.info = "html502";
    await failure(payments.payoffInfo(account(version), quote.id), UnreachableError);
    expect(calls("payoff/info")).toHaveLength(3);
    fake.payoffs.faults.info = "otherPayoff";
    await failure(payments.payoffInfo(account(version), quote.id), UnexpectedResponseError);
    fake.payoffs.faults.info = "wrongTypes";
    await failure(payments.payoffInfo(account(version), quote.id), UnexpectedResponseError);
    fake.payoffs.faults.info = "brokenJson";
    await failure(payments.payoffInfo(account(version), quote.id), UnexpectedResponseError);
    fake.payoffs.faults.info = "refuse";
    const down = await refused(payments.payoffInfo(account(version), quote.id), "other");
    expect(down.messages).toEqual(fake.payoffs.refusal);
    fake.payoffs.faults.info = "slow";
    await failure(client(version, 300).payoffInfo(account(version), quote.id), UnreachableError);
  });

  it("refuses a quote for another amount than asked, naming the payout to cancel", async () => {
    const payments = client(version);
    fake.payoffs.faults.create = "lieAmount";
    const error = await failure(payments.createPayoff(account(version), draft()), PayoffMismatchError);
    expect(fake.payoffs.all.get(error.payoffId)?.state).toBe("created");
    delete fake.payoffs.faults.create;
    expect((await payments.cancelPayoff(account(version), error.payoffId)).state).toBe("canceled");
  });

  it("shows a payout changed at the service behind Kassa's back", async () => {
    const payments = client(version);
    // What the approvers saw: the quote, with the wallet as asked (a v2 quote names none).
    const quote = { ...(await payments.createPayoff(account(version), draft())), wallet: WALLET };
    fake.payoffs.alter(quote.id, { amount: "1500.11" });
    const now = await payments.payoffInfo(account(version), quote.id);
    expect(now.amount.value).toBe("1500.11");
    // What arrives and what leaves the balance move with the amount.
    expect(changedTerms(quote, now)).toEqual(["amount", "receives", "leavesBalance"]);
    fake.payoffs.alter(quote.id, { amount: "1500.10", wallet: "2200700087654321" });
    expect(changedTerms(quote, await payments.payoffInfo(account(version), quote.id))).toEqual(["wallet"]);
    expect(changedTerms(quote, { ...quote, amount: { value: "1500.100", currency: "rub" } })).toEqual([]);
  });

  it("shows a fee raised at the service, the amount, method and wallet unchanged", async () => {
    const payments = client(version);
    const made = await payments.createPayoff(account(version), draft({ subtractFrom: "amount" }));
    const quote = { ...made, wallet: WALLET };
    fake.payoffs.alter(quote.id, { commission: "99.99" });
    const now = await payments.payoffInfo(account(version), quote.id);
    expect(changedTerms(quote, now)).toEqual(["fee", "receives"]);
    // The same figures written another way ("15.00" against "15") are the same payout.
    const longer = quote.fee.value.includes(".") ? `${quote.fee.value}0` : `${quote.fee.value}.00`;
    const same = { ...quote, fee: { value: longer, currency: quote.currency } };
    expect(changedTerms(quote, same)).toEqual([]);
  });

  it("reads an info answer without its fee figures, comparing only what it gives", async () => {
    const payments = client(version);
    const quote = { ...(await payments.createPayoff(account(version), draft())), wallet: WALLET };
    fake.payoffs.infoLeavesOut =
      version === "v3"
        ? ["commission_amount", "receive_amount", "deduction_amount"]
        : ["commission", "receive_amount", "deduction_amount"];
    fake.payoffs.alter(quote.id, { commission: "99.99" });
    const now = await payments.payoffInfo(account(version), quote.id);
    expect(now).toMatchObject({ fee: null, receives: null, leavesBalance: null, state: "created" });
    expect(changedTerms(quote, now)).toEqual([]);
    fake.payoffs.alter(quote.id, { wallet: "2200700087654321" });
    expect(changedTerms(quote, await payments.payoffInfo(account(version), quote.id))).toEqual(["wallet"]);
    fake.payoffs.infoLeavesOut = [];
  });

  it(`reads the history of payouts, those made outside Kassa too, newest first (not ${other}'s path)`, async () => {
    const payments = client(version);
    const mine = await payments.createPayoff(account(version), draft());
    const outside = fake.payoffs.makeOutside({
      login: LOGIN,
      method: "BITCOIN",
      wallet: "bc1qthief",
      amount: "0.5",
    });
    fake.payoffs.makeOutside({ login: "another_register", method: "BITCOIN", wallet: "bc1q", amount: "0.5" });
    // Same second: the later made is listed first.
    const page = await payments.getPayoffHistory(account(version), 1, 10);
    expect(page.entries.map((entry) => entry.id)).toEqual([outside.id, mine.id]);
    expect(page.entries[0]).toMatchObject({
      state: "payed",
      method: "BITCOIN",
      amount: { value: "0.5", currency: "BTC" },
    });
    expect(page.entries[0]?.wallet).toBe(version === "v3" ? "bc1qthief" : null);
    expect(page.hasNextPage).toBe(version === "v3" ? false : null);
    const first = await payments.getPayoffHistory(account(version), 1, 1);
    expect(first.entries).toHaveLength(1);
    if (version === "v3") expect(first.hasNextPage).toBe(true);
    expect(fake.requests.at(-1)?.path).toBe(
      version === "v3" ? "/v3/report/payoff/history/" : "/v2/history/payoffs/",
    );
  });
});

describe("payout methods", () => {
  it("lists v3's payout methods with fees and limits", async () => {
    const list = await client("v3").listPayoffMethods(account("v3"));
    if (!list.listed) throw new Error("expected a list");
    expect(list.methods.map((method) => method.code)).toEqual([
      "CRYSTALPAY",
      "CARDRUBP2P",
      "LZTMARKET",
      "BITCOIN",
      "USDTTRC",
      "BTCCRYPTOBOT",
    ]);
    expect(list.methods.find((method) => method.code === "CARDRUBP2P")).toEqual({
      code: "CARDRUBP2P",
      name: "Card RUB P2P",
      currency: "RUB",
      feePercent: "1",
      feeFixed: { value: "0", currency: "RUB" },
      extraFeePercent: "0",
      extraFeeFixed: { value: "0", currency: "RUB" },
      min: { value: "100", currency: "RUB" },
      max: { value: "150000", currency: "RUB" },
    });
    const usdt = list.methods.find((method) => method.code === "USDTTRC");
    expect(usdt).toMatchObject({
      extraFeePercent: "0.5",
      feeFixed: { value: "1", currency: "USDT" },
      max: null,
    });
  });

  it("says a v2 register has no list, without asking", async () => {
    expect(await client("v2").listPayoffMethods(account("v2"))).toEqual({
      listed: false,
      reason: "v2-has-no-list",
    });
    expect(fake.requests).toEqual([]);
  });
});
