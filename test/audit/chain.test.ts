/**
 * The audit chain without a store: the canonical form, the hash, and verification finding a tampered
 * entry, a removed middle entry, a swapped order and a removed prefix, each at the right entry.
 */
import { describe, expect, it } from "vitest";
import {
  type AuditLink,
  canonicalJson,
  chainHash,
  GENESIS_HASH,
  headOf,
  linkAfter,
} from "../../src/audit/chain.js";
import { type AuditEntry, auditEntrySchema, fingerprint } from "../../src/audit/entry.js";
import { dayStart, removalEntry, retentionCutoff } from "../../src/audit/retention.js";
import { ChainCheck, type VerifyResult } from "../../src/audit/verify.js";

const TEAM = "T0AUDIT1";
const T0 = Date.parse("2026-11-01T10:00:00.000Z");

function entry(n: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    time: new Date(T0 + n * 60_000).toISOString(),
    team: TEAM,
    actor: "U0ANNA",
    action: "invoice.created",
    object: `invoice ${n}`,
    after: { amount: "1500.00", currency: "RUB" },
    outcome: "done",
    ...overrides,
  };
}

function chainOf(count: number): AuditLink[] {
  const links: AuditLink[] = [];
  for (let n = 1; n <= count; n++) {
    const last = links.at(-1);
    links.push(linkAfter(last && headOf(last), entry(n)));
  }
  return links;
}

function verify(links: AuditLink[], head = links.at(-1)): VerifyResult {
  const check = new ChainCheck(TEAM);
  for (const link of links) {
    const broken = check.next(link);
    if (broken) return broken;
  }
  return check.finish(head && headOf(head));
}

/** The link with its entry text altered as someone editing the row would (hash left as it was). */
function altered(link: AuditLink, change: (entry: Record<string, unknown>) => void): AuditLink {
  const data = JSON.parse(link.entry) as Record<string, unknown>;
  change(data);
  return { ...link, entry: canonicalJson(data) };
}

describe("the canonical form", () => {
  it("sorts keys at every depth, drops undefined members, keeps arrays in order, no spaces", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: "é" }], c: null }, u: undefined })).toBe(
      '{"a":{"c":null,"d":[3,{"y":"é","z":1}]},"b":1}',
    );
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(/non-finite/);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(/not JSON/);
  });

  it("hashes SHA-256 of the previous hash followed by the canonical form", () => {
    // sha256sum of 64 zeros followed by "{}", computed apart from Node.
    expect(chainHash(GENESIS_HASH, "{}")).toBe(
      "5508d2b710e64bc470079e1b211d9c58e21011e59d0559e422345dc19d659a75",
    );
    const [one, two] = chainOf(2);
    expect(one?.prevHash).toBe(GENESIS_HASH);
    expect(one?.hash).toBe(chainHash(GENESIS_HASH, canonicalJson(entry(1))));
    expect(two?.prevHash).toBe(one?.hash);
    expect(two?.seq).toBe(2);
  });
});

describe("an entry", () => {
  it("takes a Slack id, a workflow, the CLI or Kassa as actor, never a name", () => {
    for (const actor of ["U0ANNA", "W0ANNA", "workflow:Wf0123", "cli", "kassa"])
      expect(auditEntrySchema.safeParse(entry(1, { actor })).success, actor).toBe(true);
    for (const actor of ["Anna", "anna@example.com", "u0anna", ""])
      expect(auditEntrySchema.safeParse(entry(1, { actor })).success, actor).toBe(false);
  });

  it("needs a reason when refused or failed, a UTC time, and a listed action", () => {
    expect(auditEntrySchema.safeParse(entry(1, { outcome: "refused" })).success).toBe(false);
    expect(auditEntrySchema.safeParse(entry(1, { outcome: "refused", reason: "not_admin" })).success).toBe(
      true,
    );
    expect(auditEntrySchema.safeParse(entry(1, { time: "2026-11-01T10:00:00+03:00" })).success).toBe(false);
    expect(auditEntrySchema.safeParse({ ...entry(1), action: "invoice.deleted" }).success).toBe(false);
    expect(auditEntrySchema.safeParse({ ...entry(1), name: "Anna" }).success).toBe(false);
  });

  it("records a changed key by its fingerprint, never the key", () => {
    const secret = "s3cr3t-register-key-0123456789";
    const plain = fingerprint(secret);
    expect(plain).toMatch(/^sha256:[0-9a-f]{12}$/);
    expect(plain).not.toContain(secret.slice(0, 6));
    expect(fingerprint(secret)).toBe(plain);
    expect(fingerprint(`${secret}x`)).not.toBe(plain);
    const keyed = fingerprint(secret, Buffer.alloc(32, 7));
    expect(keyed).toMatch(/^hmac-sha256:[0-9a-f]{12}$/);
    expect(keyed.slice(-12)).not.toBe(plain.slice(-12));
  });
});

describe("verifying a chain", () => {
  it("holds for an untouched chain: count, first, last and head", () => {
    const links = chainOf(5);
    expect(verify(links)).toEqual({
      ok: true,
      count: 5,
      first: { seq: 1, time: entry(1).time },
      last: { seq: 5, time: entry(5).time },
      head: { seq: 5, hash: links[4]?.hash },
    });
    expect(verify([], undefined)).toEqual({
      ok: true,
      count: 0,
      first: undefined,
      last: undefined,
      head: undefined,
    });
  });

  it("finds an entry altered in the store at that entry", () => {
    const links = chainOf(6);
    links[3] = altered(links[3] as AuditLink, (data) => {
      data.after = { amount: "15000.00", currency: "RUB" };
    });
    expect(verify(links)).toMatchObject({
      ok: false,
      seq: 4,
      reason: expect.stringMatching(/does not match its hash/),
    });
  });

  it("finds an altered entry whose hash was written again at the entry after it", () => {
    const links = chainOf(6);
    const changed = altered(links[2] as AuditLink, (data) => {
      data.actor = "U0MALLORY";
    });
    links[2] = { ...changed, actor: "U0MALLORY", hash: chainHash(changed.prevHash, changed.entry) };
    expect(verify(links)).toMatchObject({
      ok: false,
      seq: 4,
      reason: expect.stringMatching(/does not chain/),
    });
  });

  it("finds a removed middle entry at the missing number", () => {
    const links = chainOf(6);
    links.splice(2, 1);
    expect(verify(links)).toMatchObject({
      ok: false,
      seq: 3,
      reason: expect.stringMatching(/entry 3 is missing/),
    });
  });

  it("finds two entries swapped at the first of them", () => {
    const links = chainOf(6);
    const [third, fourth] = [links[2] as AuditLink, links[3] as AuditLink];
    links[2] = { ...fourth, seq: 3 };
    links[3] = { ...third, seq: 4 };
    expect(verify(links)).toMatchObject({ ok: false, seq: 3 });
  });

  it("finds an index column changed without its content (a row moved to another actor)", () => {
    const links = chainOf(3);
    links[1] = { ...(links[1] as AuditLink), actor: "U0OTHER" };
    expect(verify(links)).toMatchObject({ ok: false, seq: 2, reason: expect.stringMatching(/actor/) });
  });

  it("finds a prefix removed without a removal entry, and a tail cut off below the head", () => {
    const links = chainOf(6);
    expect(verify(links.slice(2))).toMatchObject({
      ok: false,
      seq: 3,
      reason: expect.stringMatching(/gone/),
    });
    expect(verify(links.slice(0, 4), links[5])).toMatchObject({ ok: false, seq: 5 });
  });

  it("starts from the oldest kept entry when a removal entry names it", () => {
    const links = chainOf(6);
    const [first, last] = [links[0] as AuditLink, links[2] as AuditLink];
    const removal = removalEntry(TEAM, first, last, "2026-11-02", entry(7).time);
    links.push(linkAfter(headOf(links[5] as AuditLink), removal));
    const kept = links.slice(3);
    expect(verify(kept)).toMatchObject({ ok: true, count: 4, first: { seq: 4 }, last: { seq: 7 } });
    // A removal entry naming another hash does not explain the gap.
    const forged = removalEntry(TEAM, first, { ...last, hash: "f".repeat(64) }, "2026-11-02", entry(7).time);
    const other = [...links.slice(3, 6), linkAfter(headOf(links[5] as AuditLink), forged)];
    expect(verify(other)).toMatchObject({ ok: false, seq: 4 });
  });
});

describe("retention days", () => {
  it("keeps today and the days before it, the retention in all", () => {
    const now = Date.parse("2026-11-26T16:00:00.000Z");
    expect(retentionCutoff(now, 1)).toBe("2026-11-26");
    expect(retentionCutoff(now, 30)).toBe("2026-10-28");
    expect(dayStart("2026-10-28")).toBe(Date.parse("2026-10-28T00:00:00.000Z"));
    expect(() => dayStart("2026-02-30")).toThrow();
    expect(() => dayStart("yesterday")).toThrow();
  });
});
