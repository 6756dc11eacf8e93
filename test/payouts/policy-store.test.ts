/**
 * The payout policy store: versions, compare-and-set (two admins saving at once: one wins, the other
 * is told), the history of changes; in memory and on SQLite: family logic on the claim board, which
 * runs on every engine in test/store/claims.test.ts (test/support/engines.ts says which runs where).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PolicyDraft } from "../../src/payouts/policy.js";
import { HISTORY_KEPT, PayoutPolicies, payoutPoliciesFor } from "../../src/payouts/policy-store.js";
import { openStore } from "../../src/store/keyv.js";
import { familyEngines } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const RUN = randomBytes(4).toString("hex").toUpperCase();
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-payout-policy-"));
const BACKENDS = familyEngines({ sqlite: join(sqliteDir, "kassa.sqlite") });

afterAll(() => rmSync(sqliteDir, { recursive: true, force: true }));

const DRAFT: PolicyDraft = {
  enabled: true,
  approvers: ["U0AAA1", "U0BBB2"],
  channel: "C0PAY1",
  twoApproversFrom: "50000",
  requesterDaily: "100000",
  registerDaily: "300000",
  expiryMinutes: 1440,
  methods: [],
  requesters: [],
};
const NOW = new Date("2026-11-26T10:00:00.000Z");

/** The contract every engine keeps. */
function contract(policies: () => Promise<{ store: PayoutPolicies; key: (name: string) => string }>) {
  it("has no policy until one is saved, then version 1, then 2", async () => {
    const { store, key } = await policies();
    const register = key("a");
    expect(await store.read(register)).toEqual({ kind: "none" });
    expect(await store.get(register)).toBeUndefined();
    const first = await store.save(register, DRAFT, { by: "U0ADM1", now: NOW, seenVersion: 0 });
    expect(first).toMatchObject({ kind: "saved", before: undefined });
    expect(await store.get(register)).toEqual({
      v: 1,
      ...DRAFT,
      version: 1,
      changedBy: "U0ADM1",
      changedAt: NOW.toISOString(),
    });
    const second = await store.save(register, { ...DRAFT, registerDaily: "400000" }, { by: "cli", now: NOW });
    expect(second).toMatchObject({ kind: "saved", policy: { version: 2, registerDaily: "400000" } });
    expect(second.kind === "saved" && second.before?.version).toBe(1);
  });

  it("refuses a save from a form opened before someone else's save", async () => {
    const { store, key } = await policies();
    const register = key("b");
    await store.save(register, DRAFT, { by: "U0ADM1", now: NOW, seenVersion: 0 });
    const late = await store.save(
      register,
      { ...DRAFT, enabled: false },
      { by: "U0ADM2", now: NOW, seenVersion: 0 },
    );
    expect(late).toMatchObject({
      kind: "changed_meanwhile",
      current: { kind: "set", policy: { version: 1 } },
    });
    expect((await store.get(register))?.enabled).toBe(true);
  });

  it("two admins saving at once from the same version: one wins, the other is told", async () => {
    const { store, key } = await policies();
    const register = key("c");
    const results = await Promise.all(
      ["U0ADM1", "U0ADM2", "U0ADM3"].map((by) =>
        store.save(register, { ...DRAFT, approvers: [by, "U0BBB2"] }, { by, now: NOW, seenVersion: 0 }),
      ),
    );
    const saved = results.filter((result) => result.kind === "saved");
    expect(saved).toHaveLength(1);
    expect(results.filter((result) => result.kind === "changed_meanwhile")).toHaveLength(2);
    const winner = saved[0]?.kind === "saved" ? saved[0].policy.changedBy : "";
    expect(await store.get(register)).toMatchObject({ version: 1, changedBy: winner });
    expect((await store.history(register)).map((change) => change.by)).toEqual([winner]);
  });

  it("writes every change down with who, when, before and after, and forgets the register whole", async () => {
    const { store, key } = await policies();
    const register = key("d");
    await store.save(register, DRAFT, { by: "U0ADM1", now: NOW });
    await store.save(
      register,
      { ...DRAFT, channel: "C0PAY2" },
      { by: "cli", now: new Date(NOW.getTime() + 1000) },
    );
    const history = await store.history(register);
    expect(
      history.map((change) => [
        change.version,
        change.by,
        change.before?.channel ?? null,
        change.after.channel,
      ]),
    ).toEqual([
      [1, "U0ADM1", null, "C0PAY1"],
      [2, "cli", "C0PAY1", "C0PAY2"],
    ]);
    expect(history[1]?.at).toBe("2026-11-26T10:00:01.000Z");
    expect(await store.get(key("other"))).toBeUndefined();
    await store.remove(register);
    expect(await store.read(register)).toEqual({ kind: "none" });
    expect(await store.history(register)).toEqual([]);
  });
}

describe("payout policies (memory board)", () => {
  contract(async () => ({
    store: new PayoutPolicies(async () => memoryClaimBoard()),
    key: (name) => `T1~${name}`,
  }));

  it(`keeps the last ${HISTORY_KEPT} changes`, async () => {
    const store = new PayoutPolicies(async () => memoryClaimBoard());
    for (let n = 0; n < HISTORY_KEPT + 3; n += 1) await store.save("T1", DRAFT, { by: "cli", now: NOW });
    const history = await store.history("T1");
    expect(history).toHaveLength(HISTORY_KEPT);
    expect(history[0]?.version).toBe(4);
    expect(history.at(-1)?.version).toBe(HISTORY_KEPT + 3);
  });

  it("reads a stored policy it cannot parse as unreadable: payouts stay off, and a save replaces it", async () => {
    const board = memoryClaimBoard();
    const store = new PayoutPolicies(async () => board);
    await board.swapState("payout-policy", "T1", "policy", undefined, { version: 7, approvers: "nobody" });
    expect(await store.read("T1")).toEqual({ kind: "unreadable", version: 7 });
    expect(await store.get("T1")).toBeUndefined();
    const saved = await store.save("T1", DRAFT, { by: "U0ADM1", now: NOW, seenVersion: 7 });
    expect(saved).toMatchObject({ kind: "saved", policy: { version: 8 }, before: undefined });
  });
});

for (const backend of BACKENDS) {
  describe(`payout policies on ${backend.name}`, () => {
    let opened: Awaited<ReturnType<typeof openStore>>[] = [];
    afterAll(async () => {
      await Promise.all(opened.map((store) => store.close()));
      opened = [];
    });
    contract(async () => {
      const store = await openStore(backend.url ?? "");
      opened.push(store);
      return { store: payoutPoliciesFor(store, 2000), key: (name) => `T${RUN}${backend.name}~${name}` };
    });

    it("two replicas saving at once from the same version: one wins", async () => {
      const [one, two] = await Promise.all([openStore(backend.url ?? ""), openStore(backend.url ?? "")]);
      opened.push(one, two);
      const register = `T${RUN}${backend.name}~race`;
      const [a, b] = [payoutPoliciesFor(one, 2000), payoutPoliciesFor(two, 2000)];
      const results = await Promise.all([
        a.save(register, DRAFT, { by: "U0ADM1", now: NOW, seenVersion: 0 }),
        b.save(register, { ...DRAFT, enabled: false }, { by: "U0ADM2", now: NOW, seenVersion: 0 }),
      ]);
      expect(results.map((result) => result.kind).sort()).toEqual(["changed_meanwhile", "saved"]);
      expect(await a.history(register)).toHaveLength(1);
      await a.remove(register);
    });
  });
}
