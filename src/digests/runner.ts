import { randomBytes } from "node:crypto";
import type { webApi } from "@slack/bolt";
import type { KeptHistory } from "../history/kept.js";
import type { Lang } from "../i18n/lang.js";
import type { UnpaidTally } from "../links/unpaid.js";
import { periodBounds } from "../reports/periods.js";
import type { PaidRefund } from "../reports/refunds.js";
import { slackApiError } from "../slack/error.js";
import { isChannelGone, slackFailureOfCode } from "../slack/failures.js";
import type { Leases } from "../store/leases.js";
import { type RegisterShown, registerOfKey } from "../store/registers.js";
import { type Clock, systemClock } from "../util/clock.js";
import type { Logger } from "../util/logger.js";
import { RepeatingPass } from "../util/repeating.js";
import { type PeriodDigest, periodDigestDue } from "./model.js";
import { postDigest } from "./post.js";
import type { DigestStore } from "./store.js";

export type DigestRunnerDeps = {
  store: DigestStore;
  history: KeptHistory;
  leases: Leases;
  /** The store's claimOnce with an owner (KeyvStore.claimOnce): true for one owner per key. */
  claimOnce: (key: string, ttlMs: number, owner: string) => Promise<boolean>;
  /** The workspace's Slack client (undefined: not installed); given its team id. */
  slack: (team: string) => Promise<webApi.WebClient | undefined>;
  /** The workspace's language and whether everyone may see the balance; given its team id. */
  settings: (team: string) => Promise<{ lang: Lang; everyone: boolean }>;
  /**
   * The register as its workspace's directory has it: its name where the workspace has several (the
   * digest says which), the channels it is kept to (digests elsewhere wait). Left out: one register.
   */
  registers?: (key: string) => Promise<RegisterShown>;
  /**
   * The digests' line on payment links (issue 51): the register's links made since `from` (epoch ms)
   * still waiting for payment. Left out: no line.
   */
  unpaid?: (registerKey: string, from: number) => Promise<UnpaidTally>;
  /** A register's paid refunds (issue 52): the report's refunds line and the month file's column. */
  refunds?: ((registerKey: string) => Promise<readonly PaidRefund[]>) | undefined;
  logger: Logger;
  clock?: Clock;
};

/** A period's claim outlives any repeat of it: a week's or a month's digest is claimed for 40 days. */
const CLAIM_MS = 40 * 86_400_000;
const LEASE_MS = 60_000;

/**
 * The weekly and monthly digests: every DIGEST_INTERVAL_MS, each workspace with one is looked at by
 * one replica (a lease), and each digest whose moment has come is posted once per period across
 * replicas: the period it owes is written down with a token first, then claimed (claimOnce with that
 * token as owner), then posted, then marked posted. A replica that died after claiming leaves the
 * token, and the next pass claims with it again and posts; only a death between Slack taking the
 * post and the mark may repeat it.
 */
export class DigestRunner {
  private readonly clock: Clock;
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: DigestRunnerDeps,
    options: { intervalMs: number },
  ) {
    this.clock = deps.clock ?? systemClock;
    this.loop = new RepeatingPass(() => this.pass(), {
      intervalMs: () => options.intervalMs,
      failed: (error) => deps.logger.error({ err: error }, "digest pass failed"),
      clock: this.clock,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass now, after the one under way (tests drive the digests this way). */
  passNow(): Promise<void> {
    return this.loop.runNow();
  }

  close(graceMs = 3000): Promise<void> {
    return this.loop.close(graceMs);
  }

  private async pass(): Promise<void> {
    for await (const team of this.deps.store.teams()) {
      if (this.loop.isStopped) return;
      await this.workspace(team).catch((error: unknown) =>
        this.deps.logger.warn({ team, err: error }, "digests of a workspace not looked at"),
      );
    }
  }

  /** One register's digests (`team`: its key; main's is the team id, as before registers). */
  private async workspace(team: string): Promise<void> {
    const now = new Date(this.clock.now());
    const listed = await this.deps.store.list(team);
    if (listed.length === 0) return;
    const shown = (await this.deps.registers?.(team)) ?? { label: undefined, keptTo: undefined };
    // A register kept to chosen channels posts its digests only there.
    const allowed = listed.filter((digest) => shown.keptTo?.includes(digest.channel) ?? true);
    const due = allowed.flatMap((digest) => {
      const owed = periodDigestDue(now, digest);
      return owed ? [{ digest, ...owed }] : [];
    });
    if (due.length === 0) return;
    const owner = randomBytes(8).toString("hex");
    const key = `digests:${team}`;
    if (!(await this.deps.leases.acquire(key, owner, owner, LEASE_MS)).held) return;
    const renewal = this.clock.every(
      LEASE_MS / 3,
      () => void this.deps.leases.renew(key, owner, LEASE_MS).catch(() => {}),
    );
    try {
      for (const entry of due) if (!this.loop.isStopped) await this.one(team, shown.label, entry, now);
    } finally {
      renewal.cancel();
      await this.deps.leases.release(key, owner).catch(() => {});
    }
  }

  private async one(
    team: string,
    register: string | undefined,
    owed: { digest: PeriodDigest; key: string; period: Parameters<typeof periodBounds>[0] },
    now: Date,
  ): Promise<void> {
    const { store } = this.deps;
    const { digest, key, period } = owed;
    let state = await store.state(team, digest.channel, digest.cadence);
    if (state.posted === key) return;
    if (state.owed?.key !== key) {
      state = { posted: state.posted ?? null, owed: { key, token: randomBytes(12).toString("hex") } };
      await store.setState(team, digest.channel, digest.cadence, state);
    }
    const token = state.owed?.token ?? "";
    const claim = `digest:${team}:${digest.channel}:${digest.cadence}:${key}`;
    const log = { team, channel: digest.channel, cadence: digest.cadence, period };
    if (!(await this.deps.claimOnce(claim, CLAIM_MS, token))) {
      this.deps.logger.info({ ...log, outcome: "digest_already_sent" }, "digest taken by another replica");
      return;
    }
    const workspace = registerOfKey(team).team;
    const slack = await this.deps.slack(workspace);
    const bounds = periodBounds(period, now, digest.zone);
    if (!slack || !bounds) return;
    const { lang, everyone } = await this.deps.settings(workspace);
    try {
      await postDigest(this.deps, slack, { team, register, digest, bounds, lang, everyone, now });
    } catch (error) {
      const slackError = slackApiError(error);
      // A channel a digest cannot reach (gone, or restricted): that period is given up (said in the
      // log), not tried forever.
      const failure = slackFailureOfCode(slackError);
      if (!isChannelGone(failure) && failure !== "restricted") {
        this.deps.logger.warn({ ...log, err: error, outcome: "digest_post_failed" }, "digest not posted");
        return;
      }
      this.deps.logger.warn(
        { ...log, slackError, outcome: "digest_unreachable" },
        "digest given up for this period",
      );
      await store.setState(team, digest.channel, digest.cadence, { posted: key, owed: null });
      return;
    }
    await store.setState(team, digest.channel, digest.cadence, { posted: key, owed: null });
    this.deps.logger.info({ ...log, outcome: "digest_posted" }, "digest posted");
  }
}
