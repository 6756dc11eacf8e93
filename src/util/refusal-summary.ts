import type { Logger } from "./logger.js";

/** How often refused requests are summed up in the log by default. */
export const REFUSAL_SUMMARY_MS = 60_000;
/** Distinct reasons kept per workspace between summaries; more are counted as "other". */
const MAX_REASONS = 20;
/** Workspaces kept between summaries; more are counted with the unattributed requests. */
const MAX_SUBJECTS = 10_000;

type Counts = Map<string, number>;

/**
 * Refused requests from outside (a bad callback signature, an unknown address, a malformed path)
 * are the sender's problem, and a flood of them must not flood the log: each is counted, and once a
 * period one line per workspace (warn: its own address, so a misconfigured Secret 2 or someone
 * trying) and one for the requests no workspace owns (info: the internet's background noise) say how
 * many, by reason. Memory is bounded whatever arrives.
 */
export class RefusalSummary {
  private readonly bySubject = new Map<string, Counts>();
  private readonly unattributed: Counts = new Map();
  private readonly timer: NodeJS.Timeout;
  private since = Date.now();

  constructor(
    private readonly logger: Logger,
    periodMs: number = REFUSAL_SUMMARY_MS,
  ) {
    this.timer = setInterval(() => this.flush(), periodMs);
    this.timer.unref();
  }

  /** One refused request; `teamId` when the address named a workspace. */
  count(teamId: string | undefined, reason: string): void {
    let counts = teamId === undefined ? this.unattributed : this.bySubject.get(teamId);
    if (!counts) {
      if (teamId === undefined || this.bySubject.size >= MAX_SUBJECTS) counts = this.unattributed;
      else {
        counts = new Map();
        this.bySubject.set(teamId, counts);
      }
    }
    const key = counts.has(reason) || counts.size < MAX_REASONS ? reason : "other";
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }

  /** Writes the lines for what was counted since the last ones (nothing when nothing was refused). */
  flush(): void {
    const periodMs = Date.now() - this.since;
    this.since = Date.now();
    for (const [teamId, counts] of this.bySubject) {
      this.logger.warn(
        { outcome: "callbacks_refused", teamId, refused: total(counts), reasons: record(counts), periodMs },
        "payment service callbacks refused on this workspace's address",
      );
    }
    if (this.unattributed.size > 0) {
      this.logger.info(
        {
          outcome: "requests_refused",
          refused: total(this.unattributed),
          reasons: record(this.unattributed),
          periodMs,
        },
        "requests to unknown or malformed addresses refused",
      );
    }
    this.bySubject.clear();
    this.unattributed.clear();
  }

  /** Stops the timer and writes what is left (at shutdown). */
  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}

function total(counts: Counts): number {
  let sum = 0;
  for (const count of counts.values()) sum += count;
  return sum;
}

function record(counts: Counts): Record<string, number> {
  return Object.fromEntries(counts);
}
