import { type $Fetch, createFetch, FetchError } from "ofetch";
import type { z } from "zod";
import { BusyError, ServiceError, UnexpectedResponseError, UnreachableError } from "./errors.js";
import {
  createHttpFetch,
  type HttpFetch,
  type HttpFetchOptions,
  RedirectError,
  ResponseTooLargeError,
  UnreadableBodyError,
} from "./http-fetch.js";
import { parseJsonExact } from "./json.js";
import type { ApiVersion, PaymentsAccount } from "./model.js";
import {
  type BeforeSend,
  type CallPriority,
  RegisterQueue,
  type RegisterQueueOptions,
} from "./register-queue.js";
import { RetryBudget } from "./retry-budget.js";
import { envelopeSchema } from "./schemas.js";

/** What a request body may carry besides the credentials. */
export type RequestFields = Record<string, string | number | boolean | string[]>;

/** Which failures a request may be sent again after. */
export type RetryPolicy = "transient" | "not-sent";

export type ServiceRequestsOptions = {
  /** Root of the API without the version segment, ending in a slash. */
  baseUrl: string;
  timeoutMs: number;
  /** Retries after the first attempt, for network errors, timeouts and 5xx (all calls only read). */
  retries?: number | undefined;
  /** First backoff delay; doubles on each retry. */
  retryDelayMs?: number | undefined;
  /** Settings of the transport under ofetch (see http-fetch.ts); its time-out is timeoutMs. */
  transport?: Omit<HttpFetchOptions, "timeoutMs"> | undefined;
  /** Each cash register's budget: calls in flight, calls per second, longest wait for a turn. */
  queue: RegisterQueueOptions;
};

/** Longest excerpt of a bad answer kept for the log. */
const DETAIL_LIMIT = 200;

/**
 * One request to the service, whatever it asks: in its cash register's turn, with a deadline, retried
 * within a budget, its envelope checked; every failure becomes one of the PaymentsError kinds.
 */
export class ServiceRequests {
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly transport: HttpFetch;
  private readonly ofetch: $Fetch;
  private readonly queue: RegisterQueue;
  private readonly retryBudget = new RetryBudget();

  constructor(private readonly options: ServiceRequestsOptions) {
    this.queue = new RegisterQueue(options.queue);
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 300;
    this.transport = createHttpFetch({ ...options.transport, timeoutMs: options.timeoutMs });
    this.ofetch = createFetch({ fetch: this.transport });
  }

  /** Closes idle connections to the service (at shutdown). */
  close(): void {
    this.transport.close();
  }

  /**
   * POSTs one request and returns the JSON body of a successful answer (error=false). The secret
   * goes only into the request body; no error built here quotes the request.
   */
  async post(
    version: ApiVersion,
    path: string,
    account: PaymentsAccount,
    fields: RequestFields,
    retry: RetryPolicy = "transient",
    priority: CallPriority = "command",
    beforeSend?: BeforeSend,
  ): Promise<Record<string, unknown>> {
    const url = `${this.options.baseUrl}${version}/${path}`;
    const text = await this.send(
      account.login,
      url,
      { auth_login: account.login, auth_secret: account.secret, ...fields },
      retry,
      priority,
      beforeSend,
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
    priority: CallPriority = "command",
    beforeSend?: BeforeSend,
  ): Promise<string> {
    this.retryBudget.attempt();
    let previous: Error | undefined;
    for (let attempt = 0; ; attempt += 1) {
      let waitedMs = 0;
      try {
        return await this.queue.run(
          register,
          async (waited) => {
            waitedMs = waited;
            if (beforeSend && !(await beforeSend())) throw new BusyError("withdrawn", waited);
            return this.ofetch(url, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json" },
              body,
              responseType: "text",
              retry: false,
            });
          },
          priority,
        );
      } catch (error) {
        if (error instanceof BusyError) throw error.reason === "withdrawn" ? error : (previous ?? error);
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
