import type { webApi } from "@slack/bolt";
import { auditHeadMessage } from "../blocks/audit.js";
import type { ClaimBoard } from "../store/claims/index.js";
import type { SettingsStore } from "../store/settings.js";
import type { Clock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { RepeatingPass } from "../util/repeating.js";
import type { AuditTrail } from "./trail.js";

// Once a UTC day per workspace, on whichever replica claims it first: the trail's retention for
// that workspace, then its chain's head posted in its audit channel (when an admin chose one), so
// rewriting the store afterwards contradicts Slack's own history. Every replica checks every
// AUDIT_CHECK_MS; the claim board gives each workspace's day to one claim.

export const AUDIT_DAY_FAMILY = "audit-day";
const DAY_MS = 86_400_000;
/** A workspace's claim: retention and one Slack post fit in it many times over. */
const LEASE_MS = 5 * 60_000;
/** Workspaces claimed per check; the rest are claimed at the next check. */
const BATCH = 50;

export type AuditDayDeps = {
  trail: Pick<AuditTrail, "teams" | "head" | "removeExpired">;
  board: Pick<ClaimBoard, "enlist" | "claimDue" | "release">;
  settings: Pick<SettingsStore, "get">;
  slack: (team: string) => Promise<webApi.WebClient | undefined>;
  logger: Logger;
};

/** The first millisecond of the UTC day after `now`'s. */
export function nextUtcMidnight(now: number): number {
  return (Math.floor(now / DAY_MS) + 1) * DAY_MS;
}

/**
 * One check: every team with a chain is on the board (due at the next UTC midnight when new);
 * each due one claimed is done, then due again at the next midnight (or at the next check when
 * its work failed). Answers the teams done.
 */
export async function runAuditDay(deps: AuditDayDeps, now: number, retryAt: number): Promise<string[]> {
  for (const team of await deps.trail.teams())
    await deps.board.enlist(AUDIT_DAY_FAMILY, team, nextUtcMidnight(now));
  const done: string[] = [];
  for (const { key: team, token } of await deps.board.claimDue(AUDIT_DAY_FAMILY, now, LEASE_MS, BATCH)) {
    let dueAt = nextUtcMidnight(now);
    try {
      await auditDayOf(deps, team);
      done.push(team);
    } catch (error) {
      deps.logger.warn({ err: error, team }, "the audit trail's daily work failed; trying again later");
      dueAt = retryAt;
    }
    await deps.board.release(AUDIT_DAY_FAMILY, team, token, { dueAt });
  }
  return done;
}

/** A team's day: its expired days removed, then its head posted where its admins chose. */
async function auditDayOf(deps: AuditDayDeps, team: string): Promise<void> {
  const removal = await deps.trail.removeExpired(team);
  if (removal.removed > 0) deps.logger.info({ team, removed: removal.removed }, "audit days removed");
  const settings = await deps.settings.get(team);
  if (!settings.auditChannel) return;
  const head = await deps.trail.head(team);
  const client = head && (await deps.slack(team));
  if (!head || !client) return;
  const message = auditHeadMessage(head, settings.language ?? "en");
  await client.chat.postMessage({
    channel: settings.auditChannel,
    text: message.text,
    blocks: message.blocks,
  });
}

/** Runs runAuditDay every `intervalMs` until closed. */
export class AuditDayRunner {
  private readonly loop: RepeatingPass;

  constructor(deps: AuditDayDeps, options: { intervalMs: number; clock: Clock }) {
    this.loop = new RepeatingPass(
      () => {
        const now = options.clock.now();
        return runAuditDay(deps, now, now + options.intervalMs);
      },
      {
        intervalMs: () => options.intervalMs,
        failed: (error) => deps.logger.error({ err: error }, "audit day check failed"),
        clock: options.clock,
      },
    );
  }

  start(): void {
    this.loop.start();
  }

  /** One check now, after the one under way (tests drive the daily work this way). */
  passNow(): Promise<void> {
    return this.loop.runNow();
  }

  /** Stops checking; a check under way finishes within `graceMs` (a claim it drops lapses to another replica). */
  close(graceMs = 3000): Promise<void> {
    return this.loop.close(graceMs);
  }
}
