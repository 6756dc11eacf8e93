import { webApi } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { AUDIT_DAY_FAMILY, nextUtcMidnight, runAuditDay } from "../../src/audit/daily.js";
import { AuditTrail } from "../../src/audit/index.js";
import type { WorkspaceSettings } from "../../src/store/settings.js";
import { createLogger } from "../../src/util/logger.js";
import { memoryAuditEngine } from "../support/memory-audit-engine.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const DAY_MS = 86_400_000;
const START = Date.parse("2026-11-20T10:00:00.000Z");

function setup(settings: Record<string, WorkspaceSettings>, failPost = false) {
  let now = START;
  const engine = memoryAuditEngine();
  const trail = new AuditTrail(engine, { retentionDays: 2, now: () => now });
  const board = memoryClaimBoard();
  const posts: Array<{ team: string; channel: string; text: string }> = [];
  /** A client whose chat.postMessage only records what it was asked. */
  const slack = async (team: string) => {
    const client = new webApi.WebClient(undefined, { slackApiUrl: "http://127.0.0.1:9/api/" });
    client.chat.postMessage = async (args) => {
      if (failPost) throw new Error("slack down");
      posts.push({ team, channel: args.channel, text: "text" in args && args.text ? args.text : "" });
      return { ok: true };
    };
    return client;
  };
  const deps = {
    trail,
    board,
    settings: { get: async (team: string) => settings[team] ?? {} },
    slack,
    logger: createLogger("silent"),
  };
  return {
    deps,
    engine,
    trail,
    board,
    posts,
    at: (time: number) => {
      now = time;
    },
  };
}

const act = (team: string) =>
  ({
    team,
    actor: "U0ADMIN",
    action: "settings.language_changed",
    object: "language",
    outcome: "done",
  }) as const;

describe("the audit trail's daily work", () => {
  it("computes the next UTC midnight", () => {
    expect(new Date(nextUtcMidnight(START)).toISOString()).toBe("2026-11-21T00:00:00.000Z");
    expect(nextUtcMidnight(Date.parse("2026-11-21T00:00:00.000Z"))).toBe(
      Date.parse("2026-11-22T00:00:00.000Z"),
    );
  });

  it("does each team's day once per UTC day: retention, then the head in its audit channel", async () => {
    const t = setup({ T0ONE: { auditChannel: "C0AUDIT", language: "ru" } });
    await t.trail.record(act("T0ONE"));
    await t.trail.record(act("T0TWO"));
    expect(await runAuditDay(t.deps, START, START + 1000)).toEqual([]);
    const tomorrow = nextUtcMidnight(START) + 60_000;
    expect((await runAuditDay(t.deps, tomorrow, tomorrow + 1000)).sort()).toEqual(["T0ONE", "T0TWO"]);
    expect(await runAuditDay(t.deps, tomorrow + 3_600_000, tomorrow + 3_601_000)).toEqual([]);
    expect(t.posts).toHaveLength(1);
    const head = await t.trail.head("T0ONE");
    expect(t.posts[0]).toMatchObject({ team: "T0ONE", channel: "C0AUDIT" });
    expect(t.posts[0]?.text).toContain(head?.hash);
    expect(t.posts[0]?.text).toContain("Вершина цепочки журнала");
    // Three days on, the first day is past a 2-day retention: removed, recorded, and the new head posted.
    const later = START + 3 * DAY_MS;
    t.at(later);
    expect((await runAuditDay(t.deps, later, later + 1000)).sort()).toEqual(["T0ONE", "T0TWO"]);
    const links = t.engine.links("T0ONE");
    expect(links.map((link) => link.action)).toEqual(["audit.days_removed"]);
    expect(t.posts).toHaveLength(2);
    expect(t.posts[1]?.text).toContain(links[0]?.hash);
    expect((await t.trail.verify("T0ONE")).ok).toBe(true);
  });

  it("tries a failed day again at the next check, not the next day", async () => {
    const t = setup({ T0ONE: { auditChannel: "C0AUDIT" } }, true);
    await t.trail.record(act("T0ONE"));
    await runAuditDay(t.deps, START, START + 1000);
    const tomorrow = nextUtcMidnight(START);
    expect(await runAuditDay(t.deps, tomorrow, tomorrow + 1000)).toEqual([]);
    const due = await t.board.claimDue(AUDIT_DAY_FAMILY, tomorrow + 1000, 1000, 10);
    expect(due.map((item) => item.key)).toEqual(["T0ONE"]);
  });
});
