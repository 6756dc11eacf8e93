import { FetchError, ofetch } from "ofetch";
import type { z } from "zod";
import { ServiceError, UnexpectedResponseError, UnreachableError } from "./errors.js";
import type { ApiVersion, Invoice, PaymentsAccount } from "./model.js";
import { invoiceFromV2, invoiceFromV3 } from "./normalize.js";
import { envelopeSchema, invoiceV2Schema, invoiceV3Schema } from "./schemas.js";

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
};

/** 408/429 and the 5xx a proxy in front of the service produces. */
const RETRY_STATUS_CODES = [408, 429, 500, 502, 503, 504];

/** Longest excerpt of a bad answer kept for the log. */
const DETAIL_LIMIT = 200;

/**
 * The only code that talks to the payment service. Every answer is checked with zod and turned into
 * the version-independent model; every failure becomes one of the PaymentsError kinds.
 */
export class PaymentsClient {
  private readonly retries: number;
  private readonly retryDelayMs: number;

  constructor(private readonly options: PaymentsClientOptions) {
    this.retries = options.retries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 300;
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
    let text: string;
    try {
      text = await ofetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: { auth_login: account.login, auth_secret: account.secret, ...fields },
        responseType: "text",
        timeout: this.options.timeoutMs,
        retry: this.retries,
        retryStatusCodes: RETRY_STATUS_CODES,
        retryDelay: (context) => {
          const remaining = typeof context.options.retry === "number" ? context.options.retry : 0;
          return this.retryDelayMs * 2 ** (this.retries - remaining);
        },
      });
    } catch (error) {
      throw transportError(error);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
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
    const cause = error.cause;
    const causeName = cause instanceof Error ? cause.name : "";
    const detail = cause instanceof Error ? `${cause.name}: ${cause.message}` : error.message;
    // The FetchError itself is not kept: it holds the request options, secret included.
    if (causeName === "TimeoutError" || causeName === "AbortError")
      return new UnreachableError("timeout", undefined, detail);
    return new UnreachableError("network", undefined, detail);
  }
  return error instanceof Error ? error : new Error(String(error));
}
