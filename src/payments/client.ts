import { type $Fetch, createFetch, FetchError } from "ofetch";
import type { z } from "zod";
import { ServiceError, UnexpectedResponseError, UnreachableError } from "./errors.js";
import {
  createHttpFetch,
  type HttpFetch,
  type HttpFetchOptions,
  RedirectError,
  ResponseTooLargeError,
} from "./http-fetch.js";
import { parseJsonExact } from "./json.js";
import type { ApiVersion, Invoice, MethodCatalog, PaymentsAccount } from "./model.js";
import { invoiceFromV2, invoiceFromV3, methodsFromV2, methodsFromV3 } from "./normalize.js";
import {
  envelopeSchema,
  invoiceV2Schema,
  invoiceV3Schema,
  methodListV2Schema,
  methodListV3Schema,
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
};

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

  constructor(private readonly options: PaymentsClientOptions) {
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
   * POSTs one request and returns the JSON body of a successful answer (error=false). The secret
   * goes only into the request body; no error built here quotes the request.
   */
  protected async post(
    version: ApiVersion,
    path: string,
    account: PaymentsAccount,
    fields: Record<string, string>,
  ): Promise<Record<string, unknown>> {
    const url = `${this.options.baseUrl}${version}/${path}`;
    const text = await this.send(url, { auth_login: account.login, auth_secret: account.secret, ...fields });
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
   * One request with its own retries: each attempt is a call of the transport, with a fresh time-out
   * covering the whole answer (headers and body). ofetch's built-in retry reuses the first attempt's
   * abort signal, so a retry after a time-out would fail at once.
   */
  private async send(url: string, body: Record<string, string>): Promise<string> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.ofetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body,
          responseType: "text",
          retry: false,
        });
      } catch (error) {
        const failure = transportError(error);
        const retryable = failure instanceof UnreachableError && failure.retryable;
        if (!retryable || attempt >= this.retries) throw failure;
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
    if (causeName === "TimeoutError" || causeName === "AbortError")
      return new UnreachableError("timeout", undefined, detail);
    return new UnreachableError("network", undefined, detail);
  }
  return error instanceof Error ? error : new Error(String(error));
}
