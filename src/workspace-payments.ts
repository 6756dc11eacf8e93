import { z } from "zod";
import type { PaymentsClient } from "./payments/client.js";
import { NotConnectedError } from "./payments/errors.js";
import type { ApiVersion, Invoice, PaymentMethod, PaymentsAccount } from "./payments/model.js";
import { SingleFlight } from "./single-flight.js";
import type { Cache } from "./store/cache.js";
import type { CredentialsStore } from "./store/credentials.js";
import { Memo } from "./store/memo.js";

const moneySchema = z.object({ value: z.string(), currency: z.string().nullable() });

/** A cached method list, checked when read back from the store. */
const cachedMethodsSchema = z.object({
  login: z.string(),
  apiVersion: z.enum(["v2", "v3"]),
  fetchedAt: z.number(),
  methods: z.array(
    z.object({
      code: z.string(),
      name: z.string(),
      enabled: z.boolean(),
      currency: z.string(),
      commissionPercent: z.string(),
      commission: moneySchema,
      extraCommissionPercent: z.string(),
      extraCommission: moneySchema.nullable(),
      minimalStatusLevel: z.number(),
      limits: z.object({ min: moneySchema.nullable(), max: moneySchema.nullable() }).nullable(),
    }),
  ),
});

type CachedMethods = z.infer<typeof cachedMethodsSchema>;

/** How long a method list read from the store is reused in memory. */
const METHODS_MEMO_MS = 5000;

export type MethodList = { methods: PaymentMethod[]; fetchedAt: Date; fromCache: boolean };

/**
 * The payment service as one workspace sees it: its own stored credentials, then the client;
 * the method list cached per workspace and fetched once per burst.
 */
export class WorkspacePayments {
  private readonly methodFetches = new SingleFlight<MethodList>();
  private readonly invoiceFetches = new SingleFlight<Invoice>();
  /** The store's cached list, a few seconds in memory (it is read on every /paymethods). */
  private readonly methodsMemo = new Memo<CachedMethods>(METHODS_MEMO_MS);

  constructor(
    private readonly credentials: CredentialsStore,
    private readonly client: PaymentsClient,
    private readonly cache: Cache,
    private readonly options: { defaultVersion: ApiVersion; methodsTtlMs: number },
  ) {}

  /** Identical lookups of one invoice in one workspace at the same time share one call. */
  async invoice(teamId: string, invoiceId: string): Promise<Invoice> {
    const connection = await this.connection(teamId);
    return this.invoiceFetches.run(`${teamId}:${invoiceId}`, () =>
      this.client.getInvoice(connection.account, invoiceId),
    );
  }

  /** `fresh`: skip the cache (the Refresh button), still sharing a call already under way. */
  async methods(teamId: string, options: { fresh?: boolean } = {}): Promise<MethodList> {
    const connection = await this.connection(teamId);
    const apiVersion = connection.account.apiVersion ?? this.options.defaultVersion;
    const key = `paymethods:${teamId}`;
    if (!options.fresh) {
      const cached = this.methodsMemo.get(key, undefined) ?? (await this.cache.get(key, cachedMethodsSchema));
      // Reconnecting with another login or version makes the old list someone else's.
      if (cached && cached.login === connection.login && cached.apiVersion === apiVersion) {
        this.remember(key, cached);
        return { methods: cached.methods, fetchedAt: new Date(cached.fetchedAt), fromCache: true };
      }
    }
    return this.methodFetches.run(teamId, async () => {
      const methods = await this.client.listMethods(connection.account);
      const entry: CachedMethods = { login: connection.login, apiVersion, fetchedAt: Date.now(), methods };
      await this.cache.set(key, entry, this.options.methodsTtlMs);
      this.remember(key, entry);
      return { methods, fetchedAt: new Date(entry.fetchedAt), fromCache: false };
    });
  }

  /** Tries credentials before they are saved: a method list call, uncached. */
  async tryAccount(account: PaymentsAccount): Promise<PaymentMethod[]> {
    return this.client.listMethods(account);
  }

  /** Drops what is cached for a workspace (after a disconnect or new credentials). */
  async forgetCached(teamId: string): Promise<void> {
    this.methodsMemo.delete(`paymethods:${teamId}`);
    await this.cache.delete(`paymethods:${teamId}`);
  }

  /** In memory no longer than the store keeps it. */
  private remember(key: string, entry: CachedMethods): void {
    const left = entry.fetchedAt + this.options.methodsTtlMs - Date.now();
    this.methodsMemo.set(key, entry, Math.min(METHODS_MEMO_MS, left));
  }

  private async connection(teamId: string) {
    const connection = await this.credentials.get(teamId);
    if (!connection) throw new NotConnectedError(teamId);
    return connection;
  }
}
