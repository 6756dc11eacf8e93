import { describe, expect, it } from "vitest";
import { canonicalJson, chainHash } from "../../src/audit/chain.js";
import { AUDIT_CSV_COLUMNS, auditCsv, auditJsonLines, collectEntries } from "../../src/audit/export.js";
import { AuditTrail } from "../../src/audit/index.js";
import { memoryAuditEngine } from "../support/memory-audit-engine.js";

const TEAM = "T0EXPORT";

async function trailWith(count: number) {
  const trail = new AuditTrail(memoryAuditEngine(), { retentionDays: 30 });
  for (let index = 1; index <= count; index += 1)
    await trail.record({
      team: TEAM,
      actor: "U0ADMIN",
      action: "invoice.created",
      object: index === 2 ? '=HYPERLINK("http://evil")' : `invoice ${index}`,
      after: { amount: "1500.00", note: 'a, "quoted"; one' },
      outcome: "done",
    });
  return trail;
}

describe("the audit export", () => {
  it("collects every entry of a range across pages, oldest first", async () => {
    const trail = await trailWith(450);
    const all = await collectEntries(trail, TEAM, {});
    expect(all.truncated).toBe(false);
    expect(all.entries.map((listed) => listed.seq)).toEqual(Array.from({ length: 450 }, (_, i) => i + 1));
    const capped = await collectEntries(trail, TEAM, {}, 300);
    expect(capped.truncated).toBe(true);
    expect(capped.entries[0]?.seq).toBe(151);
    expect(capped.entries.at(-1)?.seq).toBe(450);
    expect((await collectEntries(trail, TEAM, { from: Date.now() + 60_000 })).entries).toEqual([]);
  });

  it("writes CSV with every field and both hashes, no cell a formula", async () => {
    const { entries } = await collectEntries(await trailWith(3), TEAM, {});
    const csv = auditCsv(entries);
    const lines = csv.replace("\uFEFF", "").split("\r\n");
    expect(lines[0]).toBe(AUDIT_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatch(/^1,\d{4}-\d\d-\d\dT[^,]+,T0EXPORT,,,U0ADMIN,invoice.created,invoice 1,,/);
    expect(lines[1]).toContain('"{""amount"":""1500.00"",""note"":""a, \\""quoted\\""; one""}"');
    expect(lines[1]).toContain(`,done,,${"0".repeat(64)},${entries[0]?.hash}`);
    expect(lines[2]).toContain(`'=HYPERLINK(""http://evil"")`);
    expect(lines[2]).toContain(`,${entries[0]?.hash},${entries[1]?.hash}`);
  });

  it("writes JSON Lines an auditor can recompute the chain from", async () => {
    const { entries } = await collectEntries(await trailWith(3), TEAM, {});
    const rows = auditJsonLines(entries)
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { seq: number; prevHash: string; hash: string; entry: unknown });
    expect(rows.map((row) => row.seq)).toEqual([1, 2, 3]);
    let prev = "0".repeat(64);
    for (const row of rows) {
      expect(row.prevHash).toBe(prev);
      expect(chainHash(row.prevHash, canonicalJson(row.entry))).toBe(row.hash);
      prev = row.hash;
    }
  });
});
