import { type $Fetch, createFetch, FetchError } from "ofetch";
import type { z } from "zod";
import { BusyError, ServiceError, UnexpectedResponseError, UnreachableError } from "./errors.js";
import { type HistoryPage, historyFrom, historyV2Schema, historyV3Schema } from "./history.js";
import {
  createHttpFetch,
  type HttpFetch,
  type HttpFetchOptions,
  RedirectError,
  ResponseTooLargeError,
  UnreadableBodyError,
} from "./http-fetch.js";
import { parseJsonExact } from "./json.js";
import type { ApiVersion, BalanceSheet, Invoice, MethodCatalog, PaymentsAccount, RubRates } from "./model.js";
import {
  balancesFromV2,
  balancesFromV3,
  invoiceFromV2,
  invoiceFromV3,
  methodsFromV2,
  methodsFromV3,
  ratesFrom,
} from "./normalize.js";
import { RegisterQueue, type RegisterQueueOptions } from "./register-queue.js";
import { RetryBudget } from "./retry-budget.js";
import {
  balanceInfoV2Schema,
  balanceListV3Schema,
  createdInvoiceSchema,
  envelopeSchema,
  invoiceV2Schema,
  invoiceV3Schema,
  methodListV2Schema,
  methodListV3Schema,
  tickerSchema,
} from "./schemas.js";

/** What a request body may carry besides the credentials. */
type RequestFields = Record<string, string | number | boolean | string[]>;

/** A new invoice as Kassa asks for it; `amount` is an exact decimal string, never a float. */
export type InvoiceDraft = {
  amount: string;
  /** The invoice's currency (converted to roubles by the service); RUB when absent. */
  currency: string;
  /** Minutes the payment page stays open (1 to 4320). */
  lifetimeMinutes: number;
  description?: string | undefined;
  /** The merchant's own reference (the service's `extra`). */
  extra?: string | undefined;
  requiredMethod?: string | undefined;
  /** Where the service posts its payment notification (the workspace's callback address). */
  callbackUrl?: string | undefined;
};

/** What the service answers to a created invoice (v2 `{id, url, amount, type}`, v3 `{id, url, type, rub_amount}`). */
export type CreatedInvoice = { id: string; url: string };

/** Which failures a request may be sent again after. */
type RetryPolicy = "transient" | "not-sent";

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

/** Longest excerpt of a bad answer kept for the log. */
const DETAIL_LIMIT = 200;

/**
 * The only code that talks to the payment service. Every answer is checked with zod and turned into
 * the version-independent model; every failure becomes one of the PaymentsError kinds.
 */
export class PaymentsClient {
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly transport: HttpFetch;
  private readonly ofetch: $Fetch;
  private readonly queue: RegisterQueue;
  private readonly retryBudget = new RetryBudget();

  constructor(private readonly options: PaymentsClientOptions) {
    this.queue = new RegisterQueue(options.queue ?? DEFAULT_QUEUE);
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 300;
    this.transport = createHttpFetch({ ...options.transport, timeoutMs: options.timeoutMs });
    this.ofetch = createFetch({ fetch: this.transport });
  }

  /** Closes idle connections to the service (at shutdown). */
  close(): void {
    this.transport.close();
  }

  async getInvoice(account: PaymentsAccount, id: string): Promise<Invoice> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    const body = await this.post(version, "invoice/info/", account, { id });
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
    const body = await this.post(version, "method/list/", account, {});
    return version === "v3"
      ? methodsFromV3(parseShape(methodListV3Schema, body))
      : methodsFromV2(parseShape(methodListV2Schema, body));
  }

  /**
   * One page of the cash register's invoices, newest first (v2 history/payments/, v3
   * report/invoice/history/). v3 also takes a `period` whose meaning is documented nowhere we found
   * (days? a keyword?), so none is sent: the service's default is whatever it is, and a refusal
   * surfaces as a ServiceError like any other.
   */
  async getHistory(account: PaymentsAccount, page: number, items: number): Promise<HistoryPage> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    const fields = { page, items };
    if (version === "v3") {
      const body = parseShape(
        historyV3Schema,
        await this.post(version, "report/invoice/history/", account, fields),
      );
      return historyFrom(body.items, body.has_next_page ?? null, this.options.timeZone, "v3");
    }
    const body = parseShape(historyV2Schema, await this.post(version, "history/payments/", account, fields));
    return historyFrom(body.payments, null, this.options.timeZone, "v2");
  }

  /** The cash register's balances, one per method, zero ones included (v2 balance/info, v3 balance/list). */
  async getBalances(account: PaymentsAccount): Promise<BalanceSheet> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    if (version === "v3") {
      return balancesFromV3(
        parseShape(balanceListV3Schema, await this.post(version, "balance/list/", account, {})),
      );
    }
    return balancesFromV2(
      parseShape(balanceInfoV2Schema, await this.post(version, "balance/info/", account, {})),
    );
  }

  /** Prices of `currencies` in roubles (ticker/get); a currency the service does not price is absent. */
  async getRubRates(account: PaymentsAccount, currencies: string[]): Promise<RubRates> {
    const version = account.apiVersion ?? this.options.defaultVersion;
    const body = await this.post(version, "ticker/get/", account, { tickers: currencies });
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
    if (draft.requiredMethod) fields.required_method = draft.requiredMethod;
    if (draft.callbackUrl) fields.callback_url = draft.callbackUrl;
    const body = await this.post(version, "invoice/create/", account, fields, "not-sent");
    return parseShape(createdInvoiceSchema, body);
  }

  /**
   * POSTs one request and returns the JSON body of a successful answer (error=false). The secret
   * goes only into the request body; no error built here quotes the request.
   */
  protected async post(
    version: ApiVersion,
    path: string,
    account: PaymentsAccount,
    fields: RequestFields,
    retry: RetryPolicy = "transient",
  ): Promise<Record<string, unknown>> {
    const url = `${this.options.baseUrl}${version}/${path}`;
    const text = await this.send(
      account.login,
      url,
      { auth_login: account.login, auth_secret: account.secret, ...fields },
      retry,
    );
    let json: unknown;
    try {
      json = parseJsonExact(text);
    } catch {
      throw new UnexpectedResponseError("not-json", excerpt(text) || "empty body");
    }
    const envelope = envelopeSchema.safeParse(json);
    if (!envelope.success) {
      throw new UnexpectedResponseError("wrong-shape", `no error flag in ${excerpt(text)}`);
    }
    if (envelope.data.error) {
      const messages = (envelope.data.errors ?? []).filter((message) => message.trim() !== "");
      throw new ServiceError(
        messages.length > 0 ? messages : ["The payment service reported an error without a message."],
      );
    }
    return json as Record<string, unknown>;
  }

  /**
   * One request with its own retries: each attempt waits for its turn in the register's queue, then
   * is a call of the transport, with a fresh time-out covering the whole answer (headers and body)
   * from when it is sent. ofetch's built-in retry reuses the first attempt's abort signal, so a retry
   * after a time-out would fail at once. Retries are not sent past the retry budget, nor after an
   * attempt that queued longer than a time-out (the register is overloaded: another call would only
   * add to it); a retry refused by the queue ends with the failure that called for it.
   */
  private async send(
    register: string,
    url: string,
    body: RequestFields,
    retry: RetryPolicy = "transient",
  ): Promise<string> {
    this.retryBudget.attempt();
    let previous: Error | undefined;
    for (let attempt = 0; ; attempt += 1) {
      let waitedMs = 0;
      try {
        return await this.queue.run(register, (waited) => {
          waitedMs = waited;
          return this.ofetch(url, {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json" },
            body,
            responseType: "text",
            retry: false,
          });
        });
      } catch (error) {
        if (error instanceof BusyError) throw previous ?? error;
        const failure = transportError(error);
        const retryable =
          failure instanceof UnreachableError &&
          (retry === "not-sent" ? connectionRefused(error) : failure.retryable);
        if (
          !retryable ||
          attempt >= this.retries ||
          waitedMs > this.options.timeoutMs ||
          !this.retryBudget.tryRetry()
        )
          throw failure;
        previous = failure;
        await new Promise((resolve) => setTimeout(resolve, this.retryDelayMs * 2 ** attempt));
      }
    }
  }
}

export function parseShape<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const result = schema.safeParse(body);
  if (!result.success) {
    const detail = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`)
      .join("; ");
    throw new UnexpectedResponseError("wrong-shape", detail);
  }
  return result.data;
}

/** The service's host refused the connection: the request was never sent. */
function connectionRefused(error: unknown): boolean {
  const cause = error instanceof FetchError ? (error.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === "ECONNREFUSED";
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > DETAIL_LIMIT ? `${flat.slice(0, DETAIL_LIMIT)}…` : flat;
}

function transportError(error: unknown): Error {
  if (error instanceof FetchError) {
    const status = error.response?.status;
    if (status !== undefined) return new UnreachableError("http-status", status);
    // A time-out rejects with the signal's reason, a DOMException named TimeoutError.
    const cause = error.cause as { name?: unknown; message?: unknown } | undefined;
    const causeName = typeof cause?.name === "string" ? cause.name : "";
    const detail = causeName ? `${causeName}: ${String(cause?.message ?? "")}` : error.message;
    // The FetchError itself is not kept: it holds the request options, secret included.
    if (cause instanceof RedirectError) return new UnreachableError("http-status", cause.status, detail);
    if (cause instanceof ResponseTooLargeError)
      return new UnexpectedResponseError("too-large", cause.message);
    if (cause instanceof UnreadableBodyError)
      return new UnexpectedResponseError("undecodable", cause.message);
    if (causeName === "TimeoutError" || causeName === "AbortError")
      return new UnreachableError("timeout", undefined, detail);
    return new UnreachableError("network", undefined, detail);
  }
  return error instanceof Error ? error : new Error(String(error));
}
