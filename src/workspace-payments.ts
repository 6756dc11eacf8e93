import { z } from "zod";
import type { PaymentsClient } from "./payments/client.js";
import { NotConnectedError } from "./payments/errors.js";
import type { ApiVersion, Invoice, PaymentMethod, PaymentsAccount } from "./payments/model.js";
import { SingleFlight } from "./single-flight.js";
import type { Cache } from "./store/cache.js";
import type { CredentialsStore } from "./store/credentials.js";

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

export type MethodList = { methods: PaymentMethod[]; fetchedAt: Date; fromCache: boolean };

/**
 * The payment service as one workspace sees it: its own stored credentials, then the client;
 * the method list cached per workspace and fetched once per burst.
 */
export class WorkspacePayments {
  private readonly methodFetches = new SingleFlight<MethodList>();
  private readonly invoiceFetches = new SingleFlight<Invoice>();

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
      const cached = await this.cache.get(key, cachedMethodsSchema);
      // Reconnecting with another login or version makes the old list someone else's.
      if (cached && cached.login === connection.login && cached.apiVersion === apiVersion) {
        return { methods: cached.methods, fetchedAt: new Date(cached.fetchedAt), fromCache: true };
      }
    }
    return this.methodFetches.run(teamId, async () => {
      const methods = await this.client.listMethods(connection.account);
      const fetchedAt = Date.now();
      await this.cache.set(
        key,
        { login: connection.login, apiVersion, fetchedAt, methods },
        this.options.methodsTtlMs,
      );
      return { methods, fetchedAt: new Date(fetchedAt), fromCache: false };
    });
  }

  /** Tries credentials before they are saved: a method list call, uncached. */
  async tryAccount(account: PaymentsAccount): Promise<PaymentMethod[]> {
    return this.client.listMethods(account);
  }

  /** Drops what is cached for a workspace (after a disconnect or new credentials). */
  async forgetCached(teamId: string): Promise<void> {
    await this.cache.delete(`paymethods:${teamId}`);
  }

  private async connection(teamId: string) {
    const connection = await this.credentials.get(teamId);
    if (!connection) throw new NotConnectedError(teamId);
    return connection;
  }
}
