/**
 * A world for the payout requests' tests: the sandbox service over real local HTTP (payouts signed
 * with Secret 2), a real PaymentsClient, a policy on the board, and the board itself on one engine of
 * the family's (memory or SQLite, test/support/engines.ts: payouts are family logic on the board,
 * which runs on every engine in test/store/claims.test.ts). A second replica is a second board on
 * another connection to the same store.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakePayments, startFakePayments } from "../../sandbox/fake-payments.js";
import type { AuditInput } from "../../src/audit/index.js";
import { PaymentsClient } from "../../src/payments/client.js";
import type { PayoffAccount } from "../../src/payments/payoff-model.js";
import type { RegisterQueueOptions } from "../../src/payments/register-queue.js";
import { payoutNoticeSchema } from "../../src/payouts/notice-model.js";
import type { PolicyDraft } from "../../src/payouts/policy.js";
import { PayoutPolicies } from "../../src/payouts/policy-store.js";
import type { PayoutDeps } from "../../src/payouts/request-deps.js";
import type { Announce, PayoutAsk } from "../../src/payouts/requests.js";
import type { ClaimBoard } from "../../src/store/claims/index.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { createLogger } from "../../src/util/logger.js";
import { type Engine, familyEngines } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

export const RUN = randomBytes(4).toString("hex").toUpperCase();
const LOGIN = "payout_register";
const SECRET = "Sekr3t-51c2-do-not-leak";
const SALT = "Salt2-e0a9-do-not-leak";
export const WALLET = "2200700012345678";
export const [REQUESTER, ALICE, BOB, CAROL] = ["U0REQ1", "U0ALI2", "U0BOB3", "U0CAR4"] as const;

const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-payout-requests-"));
export const ENGINES = familyEngines({ sqlite: join(sqliteDir, "kassa.sqlite"), memory: true });

export const POLICY: PolicyDraft = {
  enabled: true,
  approvers: [ALICE, BOB, CAROL],
  channel: "C0PAY1",
  twoApproversFrom: "5000",
  requesterDaily: "10000",
  registerDaily: "15000",
  expiryMinutes: 60,
  methods: [],
  requesters: [REQUESTER, ALICE],
};

/** The moment the payout tests start from, and a moment `ms` after it. */
export const NOW = new Date("2026-11-26T10:00:00.000Z");
export const later = (ms: number) => new Date(NOW.getTime() + ms);
/** The worker's timing in these tests: short enough to step through, the grace longer than the lease. */
export const TIMING = {
  leaseMs: 10_000,
  graceMs: 20_000,
  followMs: 5_000,
  retryMs: 1_000,
  keepMs: 86_400_000,
};
/** The requester's ask every test starts from (its register's key filled in by the test). */
export const ASK: PayoutAsk = {
  registerKey: "",
  requester: REQUESTER,
  amount: "1500",
  method: "CARDRUBP2P",
  wallet: WALLET,
  subtractFrom: "balance",
  reason: "Supplier invoice 42",
  reference: "",
};
/** The notice a request's maker writes (requestPayout's `announce`): the card's channel, the day's total. */
export const announce: Announce = (_request, totals, policy) =>
  payoutNoticeSchema.parse({
    v: 1,
    channel: policy.channel,
    requester: REQUESTER,
    register: "main",
    several: false,
    lang: "en",
    balance: null,
    today: { total: totals.requester, cap: policy.requesterDaily },
    told: [],
  });

export type PayoutWorld = {
  fake: FakePayments;
  registerKey: string;
  /** Replica one's dependencies and a second replica's (its own connection to the same store). */
  deps: PayoutDeps;
  other: PayoutDeps;
  audit: AuditInput[];
  logs: Record<string, unknown>[];
  setPolicy(changes: Partial<PolicyDraft>): Promise<void>;
  /** Sets the register's balance of a method at the sandbox. */
  fund(code: string, amount: string): void;
  close(): Promise<void>;
};

/**
 * How the payment clients queue: given, each replica has its own client with this register queue
 * (as two processes do); `slowMs` is how long the sandbox's `slow` fault holds an answer.
 */
export type WorldClients = { queue?: RegisterQueueOptions; slowMs?: number };

/** A world on `engine`: its own board prefix, team and register, so runs and tests stay apart. */
export async function openPayoutWorld(
  engine: Engine,
  timing: PayoutDeps["timing"] = {},
  version: "v2" | "v3" = "v3",
  clients: WorldClients = {},
): Promise<PayoutWorld> {
  const fake = await startFakePayments({
    accounts: { [LOGIN]: SECRET },
    salts: { [LOGIN]: SALT },
    ...(clients.slowMs === undefined ? {} : { slowMs: clients.slowMs }),
  });
  const id = randomBytes(3).toString("hex").toUpperCase();
  const prefix = `kp_${RUN}_${id}`.toLowerCase();
  const stores: KeyvStore[] = [];
  const boards: ClaimBoard[] = [];
  if (engine.name === "memory") {
    const board = memoryClaimBoard();
    boards.push(board, board);
  } else {
    for (let n = 0; n < 2; n += 1) {
      const store = await openStore(engine.url ?? "");
      stores.push(store);
      boards.push(await openClaimBoard(store, prefix, 5000));
    }
  }
  const [one, two] = boards as [ClaimBoard, ClaimBoard];
  const policies = new PayoutPolicies(async () => one);
  const registerKey = `T${RUN}${id}`;
  await policies.save(registerKey, POLICY, { by: "cli", now: new Date() });
  const audit: AuditInput[] = [];
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger("info", { write: (line: string) => void logs.push(JSON.parse(line)) });
  const account: PayoffAccount = { login: LOGIN, secret: SECRET, salt: SALT, apiVersion: version };
  const client = () =>
    new PaymentsClient({
      baseUrl: fake.url,
      defaultVersion: "v3",
      timeoutMs: 2000,
      timeZone: "Europe/Moscow",
      retryDelayMs: 10,
      ...(clients.queue ? { queue: clients.queue } : {}),
    });
  const shared = client();
  const depsOn = (board: ClaimBoard): PayoutDeps => ({
    board,
    policies: new PayoutPolicies(async () => board),
    payments: clients.queue ? client() : shared,
    account: async (key) => (key === registerKey ? account : undefined),
    isAdmin: async () => false,
    audit: { record: async (input) => void audit.push(input) },
    logger,
    timing,
  });
  return {
    fake,
    registerKey,
    deps: depsOn(one),
    other: depsOn(two),
    audit,
    logs,
    async setPolicy(changes) {
      await policies.save(registerKey, { ...POLICY, ...changes }, { by: "cli", now: new Date() });
    },
    fund(code, amount) {
      const balance = fake.balances.find((one) => one.code === code);
      if (!balance) throw new Error(`the sandbox has no balance ${code}`);
      balance.amount = amount;
    },
    async close() {
      await fake.close();
      await Promise.all(stores.map((store) => store.close()));
    },
  };
}

/** Removes the SQLite files once every test is done. */
export function removeSqliteDir(): void {
  rmSync(sqliteDir, { recursive: true, force: true });
}
