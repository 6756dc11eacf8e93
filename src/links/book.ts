import type { ClaimBoard } from "../store/claims/board.js";
import type { Change } from "../store/claims/family.js";
import { noteLinkDay } from "./days.js";
import { changeLink, LINK_FAMILY, type LinkRecord, linkKey, readLink } from "./record.js";

// The links' records as the create paths and the pass change them: each change one compare-and-set
// of the family (record.ts), so of two replicas (or two clicks) changing one link, one wins.

/** A `creating` record this old was left by a process that stopped mid-create: taken as lost. */
export const STUCK_AFTER_MS = 15 * 60_000;

/** What is asked for: the record's fields Kassa knows before the create is sent. */
export type LinkOrder = Omit<
  LinkRecord,
  "v" | "ref" | "status" | "invoiceId" | "url" | "marked" | "createdAt" | "expiresAt" | "supersededBy"
>;

/** How the create ended: the service's id, a refusal (or nothing sent), or no usable answer. */
export type Settled = { status: "created"; invoiceId: string; url: string } | { status: "failed" | "unsure" };

/** What Create now found on the unsure record it was pressed for. */
export type Superseding =
  | { kind: "superseded"; record: LinkRecord }
  | { kind: "found"; record: LinkRecord }
  | { kind: "already"; record: LinkRecord }
  | { kind: "gone" };

export class LinkBook {
  constructor(
    readonly board: () => Promise<ClaimBoard>,
    private readonly now: () => number,
  ) {}

  /**
   * The record, written `creating` before anything is sent (never over another's); due for a look
   * once STUCK_AFTER_MS has passed, when a create still under way could only have been left by a
   * stopped process. Throws when the store cannot keep it: then nothing may be sent.
   */
  async begin(registerKey: string, ref: string, order: LinkOrder, marked: boolean): Promise<LinkRecord> {
    const board = await this.board();
    const key = linkKey(registerKey, ref);
    const record: LinkRecord = { ...order, v: 1, ref, status: "creating", marked, createdAt: this.now() };
    // Its day first: every record is then listed (a day naming a ref never written is skipped).
    await noteLinkDay(board, registerKey, ref, record.createdAt);
    const written = await changeLink(board, key, (stored) =>
      stored.raw === undefined ? { next: record, result: true } : { result: false },
    );
    if (!written) throw new Error(`link ${key} exists already`);
    await board.enlist(LINK_FAMILY, key, record.createdAt + STUCK_AFTER_MS);
    return record;
  }

  /**
   * How the create ended, on a `creating` record only (the pass may have taken it as lost meanwhile:
   * then an answer still names its invoice). An unsure one is due for a look at once.
   */
  async settle(registerKey: string, ref: string, settled: Settled): Promise<LinkRecord | undefined> {
    const board = await this.board();
    const key = linkKey(registerKey, ref);
    const record = await changeLink(board, key, (stored) => {
      const was = stored.value;
      const open = was?.status === "creating" || (was?.status === "unsure" && settled.status === "created");
      if (!was || !open) return { result: undefined };
      const next: LinkRecord =
        settled.status === "created"
          ? {
              ...was,
              status: "created",
              invoiceId: settled.invoiceId,
              url: settled.url,
              expiresAt: was.createdAt + was.lifetimeMinutes * 60_000,
            }
          : { ...was, status: settled.status };
      return { next, result: next };
    });
    // Unsure: looked for at once; created: its next look (reminder, expiry) set by the pass at once.
    if (record && record.status !== "failed") await board.nudge(LINK_FAMILY, key, this.now());
    return record;
  }

  /**
   * Create now, pressed on an unsure link: the record marked as superseded by `next` (once, however
   * many clicks), unless it was found meanwhile, or superseded already.
   */
  async supersede(registerKey: string, ref: string, next: string): Promise<Superseding> {
    const board = await this.board();
    return changeLink(board, linkKey(registerKey, ref), (stored) => superseding(stored.value, next));
  }

  /**
   * The pass found the invoice of a lost answer by its marker: the record `created` with it, once
   * (undefined when another change came first: a replica's find, or an answer after all).
   */
  async found(key: string, invoiceId: string, url: string): Promise<LinkRecord | undefined> {
    const board = await this.board();
    return changeLink(board, key, (stored) => {
      const was = stored.value;
      if (!was || (was.status !== "unsure" && was.status !== "creating")) return { result: undefined };
      const next: LinkRecord = {
        ...was,
        status: "created",
        invoiceId,
        url,
        expiresAt: was.createdAt + was.lifetimeMinutes * 60_000,
      };
      return { next, result: next };
    });
  }

  /** A `creating` record left by a stopped process, taken as lost (once). */
  async lost(key: string): Promise<LinkRecord | undefined> {
    const board = await this.board();
    return changeLink(board, key, (stored) => {
      const was = stored.value;
      if (was?.status !== "creating") return { result: was };
      const next: LinkRecord = { ...was, status: "unsure" };
      return { next, result: next };
    });
  }

  async read(registerKey: string, ref: string): Promise<LinkRecord | undefined> {
    return readLink(await this.board(), linkKey(registerKey, ref));
  }
}

/** Create now's change: superseded once; one superseded before (found since or not), or found, is left as it is. */
function superseding(record: LinkRecord | undefined, next: string): Change<LinkRecord, Superseding> {
  if (!record) return { result: { kind: "gone" } };
  if (record.supersededBy) return { result: { kind: "already", record } };
  if (record.status === "created") return { result: { kind: "found", record } };
  const marked: LinkRecord = { ...record, supersededBy: next };
  return { next: marked, result: { kind: "superseded", record: marked } };
}
