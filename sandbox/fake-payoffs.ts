/**
 * The fake payment service's payouts ("payoffs", notes/payouts.md): create (a quote, `created`),
 * submit (`processing`, then `payed` or `failed`), cancel (`created` only, to `canceled`), info, the
 * history of both versions, the signed callback when a payout ends, and hooks and faults for tests.
 * Signatures are checked with the register's Secret 2 as the service does; the refusals' wording is
 * the sandbox's own (the real wording is not documented), of the kinds clients have seen.
 */
import { createHash } from "node:crypto";
import Big from "big.js";
import { HTML_502, type Reply, reply, sleep } from "./payments-http.js";
import { toJson } from "./payments-render.js";
import type { SampleBalance, SampleMethod } from "./payments-samples.js";
import { moscowTime } from "./payments-samples.js";
import {
  payoffBodyV2,
  payoffBodyV3,
  renderPayoff,
  renderPayoffHistory,
  type SamplePayoff,
} from "./payoffs-render.js";

export type PayoffCall = "create" | "submit" | "cancel" | "info" | "history";

/**
 * How one call misbehaves (`fake.payoffs.faults[call] = ...`, until cleared): `slow` answers after
 * slowMs (the work done); `html502` is a proxy's 502 with nothing done; `lostAnswer` does the work,
 * then answers a 502 (the answer lost on the way back); `brokenJson`, `wrongTypes`; `otherPayoff`
 * answers with another payout's info; `lieAmount` answers with ten times the amount (nothing else
 * changed at the service); `refuse` answers with `refusal` and does nothing.
 */
export type PayoffFault =
  | "slow"
  | "html502"
  | "lostAnswer"
  | "brokenJson"
  | "wrongTypes"
  | "otherPayoff"
  | "lieAmount"
  | "refuse";

/** One payout callback the fake posted. */
export type SentPayoffCallback = { payoffId: string; url: string; status: number | "failed" };

export type FakePayoffs = {
  /** Every payout, by id (tests may read and edit). */
  all: Map<string, SamplePayoff>;
  faults: Partial<Record<PayoffCall, PayoffFault>>;
  /** The envelope errors of the `refuse` fault. */
  refusal: string[];
  /** The rub_amount every answer shows instead of its own (a service miscounting roubles); null: its own. */
  rubShown: string | null;
  /**
   * How a submitted payout ends by itself: `state` after `afterMs`. null (the default): it stays
   * `processing` until finish() is called.
   */
  settle: { state: "payed" | "failed"; afterMs: number; message?: string } | null;
  /**
   * Ends a `processing` payout (a failed one gives its money back) and posts its callback. Only
   * payed and failed post one: whether the service posts on cancel is not known.
   */
  finish(id: string, state: "payed" | "failed", message?: string): void;
  /**
   * Changes a payout at the service behind Kassa's back; its figures follow when the new terms fit
   * the method (otherwise only the amount changes, as a lying service would show it).
   */
  alter(
    id: string,
    changes: { amount?: string; wallet?: string; method?: string; commission?: string },
  ): void;
  /**
   * Fields left out of every info (and submit, cancel) answer, as a service that does not give them
   * would (e.g. `commission_amount`, `receive_amount`); empty: all there.
   */
  infoLeavesOut: string[];
  /**
   * A payout made outside Kassa (the dashboard, or anyone holding Secret 2): listed in the history
   * and readable with payoff/info; `payed` unless told otherwise, the fee on the balance.
   */
  makeOutside(fields: {
    login: string;
    method: string;
    wallet: string;
    amount: string;
    state?: string;
    version?: "v2" | "v3";
  }): SamplePayoff;
  /**
   * Called after each call's work is done, before its answer (a test turns faults on from here: the
   * service going down right after it took a submit, say). null: nothing.
   */
  afterCall: ((call: PayoffCall) => void) | null;
  /** Ids of accepted submits, in order (one entry per submit the service carried out). */
  submits: string[];
  /** POSTs the payout's callback (info fields + signature sha1(id:salt)); `body` overrides fields. */
  sendCallback(id: string, body?: Record<string, unknown>): Promise<SentPayoffCallback>;
  callbacks: SentPayoffCallback[];
};

export type PayoffDeskDeps = {
  salts: Record<string, string>;
  methods: () => SampleMethod[];
  balances: () => SampleBalance[];
  /** Rouble prices by currency (RUB is 1). */
  rates: () => Record<string, string>;
  slowMs: number;
  timers: Set<NodeJS.Timeout>;
};

const refuse = (...messages: string[]): Reply =>
  reply(200, JSON.stringify({ error: true, errors: messages }));
const sha1 = (text: string) => createHash("sha1").update(text, "utf8").digest("hex");
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** The service's figures for a payout of `amount` (in `currency`) by `method`, or why it refuses. */
function quote(
  method: SampleMethod,
  amount: string,
  currency: string,
  subtractFrom: "balance" | "amount",
  rates: Record<string, string>,
): Omit<SamplePayoff, "id" | "login" | "version" | "wallet" | "state" | "message" | "createdAt"> | string {
  const payout = method.payout;
  if (!payout) return `Payoffs are not available for method ${method.code}`;
  const price = (code: string) => (code === "RUB" ? "1" : rates[code]);
  const [priceFrom, priceTo] = [price(currency), price(method.currency)];
  if (!priceFrom || !priceTo) return `Unsupported currency ${currency}`;
  const places = currency === method.currency ? method.accuracy : currency === "RUB" ? 2 : 8;
  const toMethod = (value: Big) => value.times(priceFrom).div(priceTo);
  const inMethod = toMethod(new Big(amount));
  if (new Big(payout.min).gt(0) && inMethod.lt(payout.min))
    return `Amount is less than the minimum payout of ${payout.min} ${method.currency} for this method`;
  if (new Big(payout.max).gt(0) && inMethod.gt(payout.max))
    return `Amount exceeds the maximum payout of ${payout.max} ${method.currency} for this method`;
  const percent = new Big(payout.percent).plus(payout.extraPercent ?? "0");
  const fixed = new Big(payout.fixed).times(priceTo).div(priceFrom);
  const commission = new Big(amount).times(percent).div(100).plus(fixed).round(places, Big.roundHalfUp);
  const receive = subtractFrom === "amount" ? new Big(amount).minus(commission) : new Big(amount);
  const deduction = subtractFrom === "amount" ? new Big(amount) : new Big(amount).plus(commission);
  if (receive.lte(0)) return "Amount is less than the minimum payout: the fee takes all of it";
  return {
    method: method.code,
    subtractFrom,
    amountCurrency: currency,
    amount,
    commission: commission.toFixed(),
    receiveAmount: receive.toFixed(),
    deductionAmount: deduction.toFixed(),
    rubAmount: new Big(amount).times(priceFrom).round(2, Big.roundHalfUp).toFixed(),
    deductionInMethod: toMethod(deduction).round(method.accuracy, Big.roundUp).toFixed(),
  };
}

export function openPayoffDesk(deps: PayoffDeskDeps) {
  const all = new Map<string, SamplePayoff>();
  let made = 0;
  const balanceOf = (code: string) => deps.balances().find((balance) => balance.code === code);
  const newId = () => `${810000000 + ++made}_${Math.random().toString(36).slice(2, 12)}`;

  const payoffs: FakePayoffs = {
    all,
    faults: {},
    refusal: ["Payoffs are temporarily unavailable"],
    rubShown: null,
    settle: null,
    afterCall: null,
    infoLeavesOut: [],
    submits: [],
    callbacks: [],
    finish(id, state, message) {
      const payoff = all.get(id);
      if (payoff?.state !== "processing") throw new Error(`the fake has no processing payout ${id}`);
      payoff.state = state;
      payoff.finalAt = moscowTime(new Date());
      payoff.message = message ?? (state === "failed" ? "Payout rejected by the recipient's provider" : null);
      const balance = balanceOf(payoff.method);
      if (state === "failed" && balance)
        balance.amount = new Big(balance.amount).plus(payoff.deductionInMethod).toFixed();
      if (payoff.callbackUrl) void payoffs.sendCallback(id);
    },
    alter(id, changes) {
      const payoff = all.get(id);
      if (!payoff) throw new Error(`the fake has no payout ${id}`);
      const method = deps.methods().find((one) => one.code === (changes.method ?? payoff.method));
      const figures = method
        ? quote(
            method,
            changes.amount ?? payoff.amount,
            payoff.amountCurrency,
            payoff.subtractFrom,
            deps.rates(),
          )
        : undefined;
      if (typeof figures === "object") Object.assign(payoff, figures);
      else Object.assign(payoff, changes.amount ? { amount: changes.amount } : {});
      if (changes.method) payoff.method = changes.method;
      if (changes.wallet) payoff.wallet = changes.wallet;
      // Only the fee moves (the service raised it): what arrives or leaves follows from it.
      if (changes.commission !== undefined) {
        const fee = new Big(changes.commission);
        payoff.commission = fee.toFixed();
        if (payoff.subtractFrom === "amount")
          payoff.receiveAmount = new Big(payoff.amount).minus(fee).toFixed();
        else payoff.deductionAmount = new Big(payoff.amount).plus(fee).toFixed();
      }
    },
    makeOutside({ login, method, wallet, amount, state = "payed", version = "v3" }) {
      const sample = deps.methods().find((one) => one.code === method);
      const figures = sample ? quote(sample, amount, sample.currency, "balance", deps.rates()) : "no method";
      if (typeof figures === "string") throw new Error(`the fake cannot make that payout: ${figures}`);
      const payoff: SamplePayoff = {
        ...figures,
        id: newId(),
        login,
        version,
        wallet,
        state,
        message: null,
        createdAt: moscowTime(new Date()),
        outside: true,
      };
      all.set(payoff.id, payoff);
      return payoff;
    },
    async sendCallback(id, overrides = {}) {
      const payoff = all.get(id);
      if (!payoff?.callbackUrl) throw new Error(`the fake has no payout ${id} with a callback_url`);
      const info = payoff.version === "v3" ? payoffBodyV3(payoff, "info") : payoffBodyV2(payoff, "info");
      const signature = sha1(`${id}:${deps.salts[payoff.login] ?? ""}`);
      const sent: SentPayoffCallback = { payoffId: id, url: payoff.callbackUrl, status: "failed" };
      try {
        const response = await fetch(payoff.callbackUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: toJson({ ...info, signature, ...overrides }),
          signal: AbortSignal.timeout(5000),
        });
        sent.status = response.status;
        await response.arrayBuffer();
      } catch {}
      payoffs.callbacks.push(sent);
      return sent;
    },
  };
  const desk: Desk = { deps, payoffs, newId, balanceOf };
  return {
    payoffs,
    handle: (call: PayoffCall, version: "v2" | "v3", body: Record<string, unknown>) =>
      handle(desk, call, version, body),
  };
}

type Desk = {
  deps: PayoffDeskDeps;
  payoffs: FakePayoffs;
  newId: () => string;
  balanceOf: (code: string) => SampleBalance | undefined;
};

/** A call's outcome before faults: a payout to render, or a finished reply (a refusal, a history page). */
type Outcome = { payoff: SamplePayoff; part: "quote" | "info" } | Reply;

/** One payout call, with the call's fault applied around the work (see PayoffFault). */
async function handle(
  desk: Desk,
  call: PayoffCall,
  version: "v2" | "v3",
  body: Record<string, unknown>,
): Promise<Reply> {
  const fault = desk.payoffs.faults[call];
  switch (fault) {
    case "html502":
      return reply(502, HTML_502, "text/html");
    case "refuse":
      return refuse(...desk.payoffs.refusal);
    case "brokenJson":
      return reply(200, '{"error":false,"errors":[],"id":"8100');
    case "wrongTypes":
      return reply(200, JSON.stringify({ error: false, errors: [], id: 5, amount: "lots", state: 7 }));
    case "slow":
      await sleep(desk.deps.slowMs);
  }
  const outcome = await perform(desk, call, version, body);
  desk.payoffs.afterCall?.(call);
  if (fault === "lostAnswer") return reply(502, HTML_502, "text/html");
  if (!("payoff" in outcome)) return outcome;
  let shown = outcome.payoff;
  if (fault === "otherPayoff") shown = { ...shown, id: desk.newId() };
  if (fault === "lieAmount") shown = { ...shown, amount: new Big(shown.amount).times(10).toFixed() };
  if (desk.payoffs.rubShown !== null) shown = { ...shown, rubAmount: desk.payoffs.rubShown };
  return reply(200, renderPayoff(shown, version, outcome.part, desk.payoffs.infoLeavesOut));
}

function perform(desk: Desk, call: PayoffCall, version: "v2" | "v3", body: Record<string, unknown>): Outcome {
  const login = String(body.auth_login);
  if (call === "history") {
    const own = [...desk.payoffs.all.values()].filter((payoff) => payoff.login === login);
    return reply(200, renderPayoffHistory(own, body, version));
  }
  if (call === "create") return create(desk, version, login, body);
  for (const field of call === "info" ? ["id"] : ["id", "signature"]) {
    if (typeof body[field] !== "string" || body[field] === "")
      return refuse(`\`${field}\` field is required`);
  }
  const id = body.id as string;
  if (call !== "info" && !signedBy(desk, login, `${id}`, body.signature)) return refuse("Invalid signature");
  const payoff = desk.payoffs.all.get(id);
  if (!payoff || payoff.login !== login) return refuse("Payoff not found");
  if (call === "info") return { payoff, part: "info" };
  if (payoff.state !== "created") return refuse(`Payoff state is ${payoff.state}, expected created`);
  if (call === "cancel") {
    Object.assign(payoff, { state: "canceled", message: "Canceled", finalAt: moscowTime(new Date()) });
    return { payoff, part: "info" };
  }
  const balance = desk.balanceOf(payoff.method);
  if (!balance || new Big(balance.amount).lt(payoff.deductionInMethod))
    return refuse("Insufficient funds on the balance");
  balance.amount = new Big(balance.amount).minus(payoff.deductionInMethod).toFixed();
  payoff.state = "processing";
  desk.payoffs.submits.push(id);
  const settle = desk.payoffs.settle;
  if (settle) {
    const timer = setTimeout(() => {
      desk.deps.timers.delete(timer);
      if (desk.payoffs.all.get(id)?.state === "processing")
        desk.payoffs.finish(id, settle.state, settle.message);
    }, settle.afterMs);
    desk.deps.timers.add(timer);
  }
  return { payoff, part: "info" };
}

/** Whether `signature` is sha1 of `fields:salt` under the register's Secret 2 (none: nothing is). */
function signedBy(desk: Desk, login: string, fields: string, signature: unknown): boolean {
  const salt = desk.deps.salts[login];
  return (
    salt !== undefined &&
    typeof signature === "string" &&
    signature.toLowerCase() === sha1(`${fields}:${salt}`)
  );
}

/** payoff/create: fields, signature (over the amount exactly as sent), method, limits, funds; then the quote. */
function create(desk: Desk, version: "v2" | "v3", login: string, body: Record<string, unknown>): Outcome {
  for (const field of ["amount", "method", "wallet", "subtract_from", "signature"]) {
    if (body[field] === undefined || body[field] === "") return refuse(`\`${field}\` field is required`);
  }
  // PHP reads a JSON number as a float and signs its text: Kassa sends strings, so this rarely matters.
  const amount = typeof body.amount === "number" ? String(body.amount) : body.amount;
  if (typeof amount !== "string" || !PLAIN_DECIMAL.test(amount) || new Big(amount).lte(0))
    return refuse("`amount` field is invalid");
  const { method: code, wallet, subtract_from: subtractFrom } = body;
  if (typeof code !== "string" || typeof wallet !== "string")
    return refuse("`method` and `wallet` must be strings");
  if (subtractFrom !== "balance" && subtractFrom !== "amount")
    return refuse("`subtract_from` field is invalid");
  if (!signedBy(desk, login, `${amount}:${code}:${wallet}`, body.signature))
    return refuse("Invalid signature");
  const method = desk.deps.methods().find((one) => one.code === code);
  if (!method) return refuse("Method not found");
  const currency = typeof body.amount_currency === "string" ? body.amount_currency : method.currency;
  const figures = quote(method, amount, currency, subtractFrom, desk.deps.rates());
  if (typeof figures === "string") return refuse(figures);
  const text = (field: string) =>
    typeof body[field] === "string" && body[field] ? (body[field] as string) : undefined;
  const payoff: SamplePayoff = {
    ...figures,
    id: desk.newId(),
    login,
    version,
    wallet,
    walletExtra: version === "v3" ? text("wallet_extra") : undefined,
    state: "created",
    message: null,
    callbackUrl: text("callback_url"),
    extra: text("extra"),
    createdAt: moscowTime(new Date()),
  };
  if (new Big(desk.balanceOf(method.code)?.amount ?? "0").lt(payoff.deductionInMethod))
    return refuse("Insufficient funds on the balance");
  desk.payoffs.all.set(payoff.id, payoff);
  return { payoff, part: "quote" };
}
