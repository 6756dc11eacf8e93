import type { Release } from "../store/claims/board.js";
import { workDue } from "../store/claims/due-work.js";
import { type Clock, systemClock } from "../util/clock.js";
import { RepeatingPass } from "../util/repeating.js";
import { STUCK_AFTER_MS } from "./book.js";
import { noteCardPlaced } from "./create.js";
import { forgetOldDays } from "./days.js";
import { type FinderDeps, findByMarker } from "./finder.js";
import { type FoundDeps, type FoundNote, tellFound } from "./found.js";
import { type LifeDeps, lookAtCreated } from "./lifecycle.js";
import { nextLook } from "./next-look.js";
import { keptUntil, keyParts, LINK_FAMILY, type LinkRecord, linkKey, readLink } from "./record.js";

// The links' pass (issue 51), on every replica every LINKS_CHECK_MS: the claim board hands each due
// link to one replica at a time. An unsure one (its answer lost, or a create a stopped process left)
// is looked for by its marker; found, it becomes `created` once (compare-and-set) and its creator
// is told, with its card. Each link's schedule is its next look: again next pass while it is being
// looked for, else when its record may be forgotten.

/** How long a lost answer's invoice is looked for: it shows in the history at once, if it was made. */
export const LOOK_FOR_MS = 24 * 3_600_000;
/** A link's claim while one replica looks at it: a few pages of history and a card. */
const LEASE_MS = 120_000;
const BATCH = 20;

export type LinkPassDeps = FinderDeps &
  FoundDeps &
  LifeDeps & {
    /** LINKS_CHECK_MS. */
    checkMs: number;
  };

export class LinkRunner {
  private readonly loop: RepeatingPass;

  constructor(
    private readonly deps: LinkPassDeps,
    private readonly clock: Clock = systemClock,
  ) {
    this.loop = new RepeatingPass(() => this.pass(), {
      intervalMs: () => deps.checkMs,
      failed: (error) => deps.logger.error({ err: error }, "payment links' pass failed"),
      clock,
    });
  }

  start(): void {
    this.loop.start();
  }

  /** One pass now, after the one under way (tests drive the pass this way). */
  passNow(): Promise<void> {
    return this.loop.runNow();
  }

  /** The due links, each claimed, looked at, and released with its next look (or forgotten). */
  async pass(): Promise<void> {
    const board = await this.deps.book.board();
    const now = this.clock.now();
    await forgetOldDays(board, now);
    await workDue(
      board,
      LINK_FAMILY,
      now,
      {
        leaseMs: LEASE_MS,
        limit: BATCH,
        retryMs: this.deps.checkMs,
        stopped: () => this.loop.isStopped,
        failed: (key, error) =>
          this.deps.logger.warn({ link: key, err: error }, "a payment link could not be looked at"),
      },
      // Each link at the clock's time when it is looked at: a reminder's mark is written with it.
      (item) => this.lookAt(item.key, this.clock.now()),
    );
  }

  close(graceMs = 3000): Promise<void> {
    return this.loop.close(graceMs);
  }

  private async lookAt(key: string, now: number): Promise<Release> {
    const board = await this.deps.book.board();
    const parts = keyParts(key);
    let record = await readLink(board, key);
    if (!parts || !record || now >= keptUntil(record)) return "forget";
    if (record.status === "creating") {
      if (now < record.createdAt + STUCK_AFTER_MS) return { dueAt: record.createdAt + STUCK_AFTER_MS };
      // Still creating long after any answer could come: its process stopped mid-create.
      record = (await this.deps.book.lost(key)) ?? record;
    }
    if (record.status === "created") return lookAtCreated(this.deps, key, parts.registerKey, record, now);
    const lookingFor = record.status === "unsure" && record.marked && now - record.createdAt < LOOK_FOR_MS;
    if (!lookingFor) return { dueAt: keptUntil(record) };
    const found = await findByMarker(this.deps, parts.registerKey, record);
    if (!found) return { dueAt: now + this.deps.checkMs };
    const settled = await this.deps.book.found(key, found.id, found.url);
    // Another change came first (an answer after all, another replica's find): nothing to tell.
    if (!settled?.invoiceId || !settled.url) return { dueAt: keptUntil(settled ?? record) };
    await this.told(parts.registerKey, { ...settled, invoiceId: settled.invoiceId, url: settled.url });
    return { dueAt: nextLook(settled, now, this.deps.checkMs) };
  }

  /** The creator told, the card posted; a failure is logged (the link stays found: never told twice). */
  private async told(registerKey: string, record: LinkRecord & { invoiceId: string; url: string }) {
    let note: FoundNote = { invoice: record.invoiceId };
    try {
      const second = record.supersededBy
        ? ((await this.deps.book.read(registerKey, record.supersededBy))?.invoiceId ?? record.supersededBy)
        : undefined;
      note = await tellFound(this.deps, registerKey, record, second);
      // Where its card went: a re-issue posts in its thread and marks it.
      await noteCardPlaced(
        { links: this.deps.book, logger: this.deps.logger },
        registerKey,
        record.ref,
        note,
      );
      this.deps.logger.info(
        { team: record.team, link: linkKey(registerKey, record.ref), outcome: "link_found", ...note },
        "a payment link whose answer was lost was found by its marker",
      );
    } catch (error) {
      this.deps.logger.warn(
        { team: record.team, link: record.ref, ...note, err: error },
        "a payment link was found, but its creator could not be told",
      );
    }
  }
}
