import type { PaymentsClient } from "../payments/client.js";
import { NotConnectedError } from "../payments/errors.js";
import type { HistoryPage } from "../payments/history.js";
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
} from "../payments/model.js";
import type { PayoffHistoryPage, PayoffMethod } from "../payments/payoff-model.js";
import type { CallPriority } from "../payments/register-queue.js";
import type { Cache } from "../store/cache.js";
import type { CredentialsStore } from "../store/credentials.js";
import type { MethodList } from "../store/payment-caches.js";
import { SingleFlight } from "../util/single-flight.js";
import { within } from "../util/within.js";
import { type BalanceReport, RATES_BUDGET_MS, readBalanceReport } from "./balance-report.js";
import { type ListOwner, MethodLists } from "./method-lists.js";

export type { BalanceReport, MethodList };
export { RATES_BUDGET_MS };

/**
 * How long an invoice card waits for a method list that is not cached (to name the chosen method):
 * the card goes out through response_url after the ack, and a person is waiting for it.
 */
export const METHOD_LOOKUP_BUDGET_MS = 1500;

/**
 * The payment service as one cash register sees it: every call takes the register's key (the team id
 * for a workspace's main register, `T…~name` for another), reads that register's stored credentials,
 * then calls the client; the method list cached per register and fetched once per burst.
 */
export class WorkspacePayments {
  private readonly invoiceFetches = new SingleFlight<Invoice>();
  private readonly balanceFetches = new SingleFlight<BalanceReport>();
  /** Each register's method list, cached (it is read on every /paymethods). */
  private readonly lists: MethodLists;

  constructor(
    private readonly credentials: CredentialsStore,
    private readonly client: PaymentsClient,
    private readonly cache: Cache,
    private readonly options: {
      defaultVersion: ApiVersion;
      methodsTtlMs: number;
      balanceTtlMs: number;
      /** The register's callback address (PUBLIC_URL set); only asked for a register with Secret 2. */
      callbackAddress?: ((registerKey: string) => Promise<string>) | undefined;
    },
  ) {
    this.lists = new MethodLists(cache, options.methodsTtlMs);
  }

  /** Identical lookups of one invoice in one register at the same time share one call. */
  async invoice(registerKey: string, invoiceId: string): Promise<Invoice> {
    const connection = await this.connection(registerKey);
    return this.invoiceFetches.run(`${registerKey}:${invoiceId}`, () =>
      this.client.getInvoice(connection.account, invoiceId),
    );
  }

  /** `fresh`: skip the cache (the Refresh button), still sharing a call already under way. */
  async methods(registerKey: string, options: { fresh?: boolean } = {}): Promise<MethodList> {
    const { account, owner } = await this.reader(registerKey);
    const cached = options.fresh ? undefined : await this.lists.cached(registerKey, owner);
    return cached ?? this.lists.read(registerKey, owner, () => this.client.listMethods(account), true);
  }

  /**
   * Changes one method at the service: ONE method/edit/, never sent again (method-calls.ts). A
   * refusal is a ServiceError in the service's words; a time-out or a 5xx an UnreachableError, "not
   * sure": read with methodNow. Whatever came of it, the register's cached list is forgotten.
   */
  async editMethod(registerKey: string, edit: MethodEdit): Promise<void> {
    const connection = await this.connection(registerKey);
    try {
      await this.client.editMethod(connection.account, edit);
    } finally {
      await this.lists.forget(registerKey).catch(() => undefined);
    }
  }

  /**
   * One method as the service has it now, never from the cache: v3 method/get/, v2 a fresh method
   * list; undefined when the service does not list it. The cached list is brought up to date with
   * it (v2 the whole list, v3 that method), so /paymethods shows the new state.
   */
  async methodNow(registerKey: string, code: string): Promise<PaymentMethod | undefined> {
    const { account, owner } = await this.reader(registerKey);
    return this.lists.now(registerKey, owner, code, {
      list: () => this.client.listMethods(account),
      one: () => this.client.getMethod(account, code),
    });
  }

  /**
   * The cash register's balances, cached for BALANCE_CACHE_TTL_MS with the rouble prices read for
   * them. A failed rates call leaves the balances standing (and is not cached: the next command
   * asks again); a failed balance call fails the whole report. Simultaneous requests share calls.
   */
  async balances(registerKey: string): Promise<BalanceReport> {
    const connection = await this.connection(registerKey);
    const apiVersion = connection.account.apiVersion ?? this.options.defaultVersion;
    return this.balanceFetches.run(registerKey, () =>
      readBalanceReport(this.client, this.cache, {
        registerKey,
        login: connection.login,
        account: connection.account,
        apiVersion,
        ttlMs: this.options.balanceTtlMs,
      }),
    );
  }

  /**
   * The method an invoice names, from the workspace's list: cached, or read within `budgetMs`.
   * Never fails and never waits longer: an invoice card does not depend on the method list. A read
   * that outlasts the budget goes on in the background and fills the cache for the next card.
   */
  async methodFor(
    registerKey: string,
    code: string,
    budgetMs: number = METHOD_LOOKUP_BUDGET_MS,
  ): Promise<PaymentMethod | undefined> {
    return (await this.methodsWithin(registerKey, budgetMs))?.methods.find((method) => method.code === code);
  }

  /**
   * One page of the workspace's cash register history, newest first (never cached: the feed reads
   * it). `background`: a long read (a report, an export) that yields to people's calls.
   */
  async history(
    registerKey: string,
    page: number,
    items: number,
    priority: CallPriority = "command",
  ): Promise<HistoryPage> {
    const connection = await this.connection(registerKey);
    return this.client.getHistory(connection.account, page, items, priority);
  }

  /** The login and API version whose history is read (a kept record belongs to them). */
  async register(registerKey: string): Promise<{ login: string; apiVersion: ApiVersion }> {
    return (await this.reader(registerKey)).owner;
  }

  /** Creates an invoice with the workspace's cash register; sent once, never shared or retried. */
  async createInvoice(registerKey: string, draft: InvoiceDraft): Promise<CreatedInvoice> {
    const connection = await this.connection(registerKey);
    // Without Secret 2 a callback could not be checked, so none is asked for; polling tells instead.
    const callbackUrl =
      connection.salt && this.options.callbackAddress
        ? await this.options.callbackAddress(registerKey)
        : undefined;
    return this.client.createInvoice(connection.account, { ...draft, callbackUrl });
  }

  /**
   * The workspace's enabled payment methods if the list is cached or read within `budgetMs`;
   * undefined otherwise (a form offering them opens without). A late read fills the cache.
   */
  async enabledMethodsWithin(registerKey: string, budgetMs: number): Promise<PaymentMethod[] | undefined> {
    return (await this.methodsWithin(registerKey, budgetMs))?.methods.filter((method) => method.enabled);
  }

  /**
   * Method names by code, cached or read within `budgetMs` (empty when slower or failing): v2
   * balances name only the code, and a finance person knows the method by its name.
   */
  async methodNamesWithin(
    registerKey: string,
    budgetMs: number = METHOD_LOOKUP_BUDGET_MS,
  ): Promise<ReadonlyMap<string, string>> {
    const list = await this.methodsWithin(registerKey, budgetMs);
    return new Map((list?.methods ?? []).map((method) => [method.code, method.name]));
  }

  /** The method list, cached or read within `budgetMs`; undefined when slower or failing. */
  private async methodsWithin(registerKey: string, budgetMs: number): Promise<MethodList | undefined> {
    return quietlyWithin(this.methods(registerKey), budgetMs);
  }

  /**
   * The register's payout methods with their fees and limits, read within `budgetMs` (the setup
   * and request forms'): "unlisted" on an API with none (v2); undefined when slower or failing.
   */
  async payoffMethodListWithin(
    key: string,
    budgetMs: number,
  ): Promise<PayoffMethod[] | "unlisted" | undefined> {
    const read = async () => {
      const list = await this.client.listPayoffMethods((await this.connection(key)).account);
      return list.listed ? list.methods : ("unlisted" as const);
    };
    return quietlyWithin(read(), budgetMs);
  }

  /** The balances alone (no rates, never cached), read in the background lane (the balance alerts' check). */
  async balanceSheet(key: string): Promise<BalanceSheet> {
    return this.client.getBalances((await this.connection(key)).account, "background");
  }

  /** One page of the register's payouts, newest first, read in the background lane (the payout watch). */
  async payoffHistory(key: string, page: number, items: number): Promise<PayoffHistoryPage> {
    return this.client.getPayoffHistory((await this.connection(key)).account, page, items, "background");
  }

  /** Tries credentials before they are saved: a method list call, uncached. */
  async tryAccount(account: PaymentsAccount): Promise<MethodCatalog> {
    return this.client.listMethods(account);
  }

  /** Drops what is cached for a register (after a disconnect or new credentials). */
  async forgetCached(registerKey: string): Promise<void> {
    await this.lists.forget(registerKey);
    await this.cache.delete(`balance:${registerKey}`);
  }

  /** The register's account, and whose lists it reads (its login and API version). */
  private async reader(registerKey: string): Promise<{ account: PaymentsAccount; owner: ListOwner }> {
    const { account, login } = await this.connection(registerKey);
    return { account, owner: { login, apiVersion: account.apiVersion ?? this.options.defaultVersion } };
  }

  private async connection(registerKey: string) {
    const connection = await this.credentials.get(registerKey);
    if (!connection) throw new NotConnectedError(registerKey);
    return connection;
  }
}

/** What `work` gives within `budgetMs`; undefined when it is slower or fails (it goes on meanwhile). */
async function quietlyWithin<T>(work: Promise<T>, budgetMs: number): Promise<T | undefined> {
  return (
    (await within(
      work.catch(() => undefined),
      budgetMs,
    )) ?? undefined
  );
}
