import { UnexpectedResponseError } from "./errors.js";
import { type HistoryPage, historyFrom, historyV2Schema, historyV3Schema } from "./history.js";
import type { HttpFetchOptions } from "./http-fetch.js";
import { editMethod, getMethod } from "./method-calls.js";
import type {
  ApiVersion,
  BalanceSheet,
  CreatedInvoice,
  Invoice,
  InvoiceDraft,
  MethodCatalog,
  MethodEdit,
  PaymentMethod,
  PaymentsAccount,
  RubRates,
} from "./model.js";
import {
  balancesFromV2,
  balancesFromV3,
  invoiceFromV2,
  invoiceFromV3,
  methodsFromV2,
  methodsFromV3,
  ratesFrom,
} from "./normalize.js";
import {
  createPayoff,
  listPayoffMethods,
  type PayoffTransport,
  payoffHistory,
  payoffInfo,
  signedPayoffCall,
} from "./payoff-calls.js";
import type {
  Payoff,
  PayoffAccount,
  PayoffDraft,
  PayoffHistoryPage,
  PayoffMethodList,
  PayoffQuote,
} from "./payoff-model.js";
import type { BeforeSend, CallPriority, RegisterQueueOptions } from "./register-queue.js";
import { parseShape, type RequestFields, ServiceRequests } from "./request.js";
import {
  balanceInfoV2Schema,
  balanceListV3Schema,
  createdInvoiceSchema,
  invoiceV2Schema,
  invoiceV3Schema,
  methodListV2Schema,
  methodListV3Schema,
  tickerSchema,
} from "./schemas.js";

export type PaymentsClientOptions = {
  /** Root of the API without the version segment, ending in a slash. */
  baseUrl: string;
  /** Used when the account does not name its own version. */
  defaultVersion: ApiVersion;
  timeoutMs: number;
  /** Zone of the service's `YYYY-MM-DD HH:MM:SS` times. */
  timeZone: string;
  /** Retries after the first attempt, for network errors, timeouts and 5xx (all calls only read). */
  retries?: number;
  /** First backoff delay; doubles on each retry. */
  retryDelayMs?: number;
  /** Settings of the transport under ofetch (see http-fetch.ts); its time-out is timeoutMs. */
  transport?: Omit<HttpFetchOptions, "timeoutMs">;
  /** Each cash register's budget: calls in flight, calls per second, longest wait for a turn. */
  queue?: RegisterQueueOptions;
};

/** What the service expects of one cash register (about 5 calls a second); PAYMENTS_* settings override. */
export const DEFAULT_QUEUE: RegisterQueueOptions = { concurrency: 10, ratePerSecond: 5, maxWaitMs: 10_000 };

/**
 * What Kassa asks of the payment service, one method per call, in both API versions. Every answer is
 * checked with zod and turned into the version-independent model; sending it is ServiceRequests'
 * job (request.ts), where every failure becomes one of the PaymentsError kinds.
 */
export class PaymentsClient {
  private readonly requests: ServiceRequests;
  /** The payout and method calls' transport: the same requests, so within the register's budget. */
  private readonly calls: PayoffTransport;

  constructor(private readonly options: PaymentsClientOptions) {
    this.requests = new ServiceRequests({ ...options, queue: options.queue ?? DEFAULT_QUEUE });
    this.calls = {
      post: (...args) => this.requests.post(...args),
      versionOf: (account) => account.apiVersion ?? options.defaultVersion,
      timeZone: options.timeZone,
    };
  }

  /** Closes idle connections to the service (at shutdown). */
  close(): void {
    this.requests.close();
  }

  async getInvoice(account: PaymentsAccount, id: string): Promise<Invoice> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    const body = await this.requests.post(version, "invoice/info/", account, { id });
    const invoice =
      version === "v3"
        ? invoiceFromV3(parseShape(invoiceV3Schema, body), this.options.timeZone)
        : invoiceFromV2(parseShape(invoiceV2Schema, body), this.options.timeZone);
    if (invoice.id !== id) {
      throw new UnexpectedResponseError("wrong-shape", `asked for invoice ${id}, got ${invoice.id}`);
    }
    return invoice;
  }

  /**
   * The cash register's payment methods, in the service's order. Entries that are payout-only or
   * unreadable are left out and named in the catalog rather than failing the whole list.
   */
  async listMethods(account: PaymentsAccount): Promise<MethodCatalog> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    const body = await this.requests.post(version, "method/list/", account, {});
    return version === "v3"
      ? methodsFromV3(parseShape(methodListV3Schema, body))
      : methodsFromV2(parseShape(methodListV2Schema, body));
  }

  /**
   * One page of the cash register's invoices, newest first (v2 history/payments/, v3
   * report/invoice/history/). v3 also takes a `period` whose meaning is documented nowhere we found
   * (days? a keyword?), so none is sent: the service's default is whatever it is, and a refusal
   * surfaces as a ServiceError like any other. `priority` background: a long read that yields to
   * people's calls within the register's budget (RegisterQueue).
   */
  async getHistory(
    account: PaymentsAccount,
    page: number,
    items: number,
    priority: CallPriority = "command",
  ): Promise<HistoryPage> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    const fields = { page, items };
    if (version === "v3") {
      const body = parseShape(
        historyV3Schema,
        await this.requests.post(version, "report/invoice/history/", account, fields, "transient", priority),
      );
      return historyFrom(body.items, body.has_next_page ?? null, this.options.timeZone, "v3");
    }
    const body = parseShape(
      historyV2Schema,
      await this.requests.post(version, "history/payments/", account, fields, "transient", priority),
    );
    return historyFrom(body.payments, null, this.options.timeZone, "v2");
  }

  /**
   * The cash register's balances, one per method, zero ones included (v2 balance/info, v3
   * balance/list). `background`: a check no one is waiting for (balance alerts) yields to people's calls.
   */
  async getBalances(account: PaymentsAccount, priority: CallPriority = "command"): Promise<BalanceSheet> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    if (version === "v3") {
      const body = await this.requests.post(version, "balance/list/", account, {}, undefined, priority);
      return balancesFromV3(parseShape(balanceListV3Schema, body));
    }
    const body = await this.requests.post(version, "balance/info/", account, {}, undefined, priority);
    return balancesFromV2(parseShape(balanceInfoV2Schema, body));
  }

  /** Prices of `currencies` in roubles (ticker/get); a currency the service does not price is absent. */
  async getRubRates(account: PaymentsAccount, currencies: string[]): Promise<RubRates> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    const body = await this.requests.post(version, "ticker/get/", account, { tickers: currencies });
    return ratesFrom(parseShape(tickerSchema, body));
  }

  /**
   * Creates an invoice (v2 and v3 `invoice/create/`; no signature is needed). Creating is not
   * idempotent on the service's side (there is no request key): a request that may have reached the
   * service is never sent again, or a time-out or a 502 from a proxy could create two invoices.
   * Only a refused connection (nothing was sent) is retried.
   */
  async createInvoice(account: PaymentsAccount, draft: InvoiceDraft): Promise<CreatedInvoice> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    const fields: RequestFields = {
      // The decimal string as typed (the service reads numeric strings): a float could change it.
      amount: draft.amount,
      type: "purchase",
      lifetime: draft.lifetimeMinutes,
      [version === "v3" ? "currency" : "amount_currency"]: draft.currency,
    };
    if (draft.description) fields.description = draft.description;
    if (draft.extra) fields.extra = draft.extra;
    if (draft.payerDetails && version === "v3") fields.payer_details = draft.payerDetails;
    if (draft.requiredMethod) fields.required_method = draft.requiredMethod;
    if (draft.callbackUrl) fields.callback_url = draft.callbackUrl;
    const body = await this.requests.post(version, "invoice/create/", account, fields, "not-sent");
    return parseShape(createdInvoiceSchema, body);
  }

  /** method/edit: one request, never sent again once it may have arrived (method-calls.ts). */
  editMethod(account: PaymentsAccount, edit: MethodEdit): Promise<void> {
    return editMethod(this.calls, account, edit, () => this.listMethods(account));
  }

  /** One method as the service has it now (v3 method/get, v2 a method list); undefined: not listed. */
  getMethod(account: PaymentsAccount, code: string): Promise<PaymentMethod | undefined> {
    return getMethod(this.calls, account, code, () => this.listMethods(account));
  }

  /** payoff/create: the quote (state `created`), signed with Secret 2; sent at most once. */
  createPayoff(account: PayoffAccount, draft: PayoffDraft): Promise<PayoffQuote> {
    return createPayoff(this.calls, account, draft);
  }

  /** payoff/submit: never retried once it may have arrived; `beforeSend` false at its turn: not sent. */
  submitPayoff(account: PayoffAccount, id: string, beforeSend?: BeforeSend): Promise<Payoff> {
    return signedPayoffCall(this.calls, "submit", account, id, beforeSend);
  }

  /** payoff/cancel: `created` to `canceled`; refused by the service in any other state. */
  cancelPayoff(account: PayoffAccount, id: string): Promise<Payoff> {
    return signedPayoffCall(this.calls, "cancel", account, id);
  }

  /** payoff/info: the payout as the service has it now (unsigned; retried like every read). */
  payoffInfo(account: PaymentsAccount, id: string): Promise<Payoff> {
    return payoffInfo(this.calls, account, id);
  }

  /** The payout methods with fees and limits (v3 method list `out`); `listed: false` on v2. */
  listPayoffMethods(account: PaymentsAccount): Promise<PayoffMethodList> {
    return listPayoffMethods(this.calls, account);
  }

  /** One page of the register's payouts, newest first (v2 history/payoffs/, v3 report/payoff/history/). */
  getPayoffHistory(
    account: PaymentsAccount,
    page: number,
    items: number,
    priority: CallPriority = "command",
  ): Promise<PayoffHistoryPage> {
    return payoffHistory(this.calls, account, page, items, priority);
  }
}
