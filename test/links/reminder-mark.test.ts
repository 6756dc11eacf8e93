/**
 * A payment link's reminder on its record (src/links/changes.ts, next-look.ts), on a clock the test
 * moves, on the claim board in memory and on SQLite (two connections stand for two replicas): taken
 * with a "being sent since" mark, refused to anyone else while the mark is fresh, taken again once it
 * is stale (its sender stopped before Slack's answer); Slack taking it ends it for good, Slack
 * refusing it makes it owed again; a record written before the mark existed reads as it did.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LinkBook, type LinkOrder } from "../../src/links/book.js";
import { giveBackReminder, reminderSent, stopReminders, takeReminder } from "../../src/links/changes.js";
import {
  nextLook,
  REMIND_GRACE_MS,
  remindAt,
  reminderDue,
  reminderSending,
  remindGraceFor,
} from "../../src/links/next-look.js";
import { type LinkRecord, linkKey, linkSchema, readLink } from "../../src/links/record.js";
import { newRef } from "../../src/payments/marker.js";
import { type ClaimBoard, openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { familyEngines } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const run = randomBytes(4).toString("hex");
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-remind-"));
const ENGINES = familyEngines({ sqlite: join(sqliteDir, "kassa.sqlite"), memory: true });
afterAll(() => rmSync(sqliteDir, { recursive: true, force: true }));

const T0 = 1_800_000_000_000;
const MIN = 60_000;
const GRACE = REMIND_GRACE_MS;
const REGISTER = "T0REMIND";
const ORDER: LinkOrder = {
  team: REGISTER,
  amount: "1500",
  currency: "RUB",
  lifetimeMinutes: 600,
  creator: "U0CREATOR",
  channel: "C0SALES",
  via: "form",
  remind: 60,
};

describe("a reminder's grace", () => {
  it("is two minutes, or five Slack deadlines when those are longer", () => {
    expect(remindGraceFor(10_000)).toBe(GRACE);
    expect(remindGraceFor(60_000)).toBe(300_000);
  });
});

for (const engine of ENGINES) {
  describe(`a link's reminder on its record (${engine.name})`, () => {
    const stores: KeyvStore[] = [];
    let boards: [ClaimBoard, ClaimBoard];
    let book: LinkBook;
    let now = T0;

    beforeAll(async () => {
      if (engine.name === "memory") {
        const board = memoryClaimBoard();
        boards = [board, board];
      } else {
        stores.push(await openStore(engine.url ?? ""), await openStore(engine.url ?? ""));
        const opened = await Promise.all(stores.map((store) => openClaimBoard(store, `kr_${run}`)));
        boards = opened as [ClaimBoard, ClaimBoard];
      }
      book = new LinkBook(
        async () => boards[0],
        () => now,
      );
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
    });

    /** A created link whose reminder is due at T0 + 540 minutes; the clock then at that time. */
    async function created(): Promise<string> {
      now = T0;
      const ref = newRef();
      await book.begin(REGISTER, ref, ORDER, true);
      await book.settle(REGISTER, ref, { status: "created", invoiceId: `inv_${ref}`, url: "https://pay/x" });
      now = T0 + 540 * MIN;
      return linkKey(REGISTER, ref);
    }
    const read = async (key: string): Promise<LinkRecord> => {
      const record = await readLink(boards[1], key);
      if (!record) throw new Error(`no record ${key}`);
      return record;
    };

    it("is taken by one; refused to another while it is being sent; taken again once its mark is stale", async () => {
      const key = await created();
      const [mine, theirs] = await Promise.all([
        takeReminder(boards[0], key, now, GRACE),
        takeReminder(boards[1], key, now, GRACE),
      ]);
      expect([mine.taken, theirs.taken].sort()).toEqual([false, true]);
      const since = now;
      let record = await read(key);
      expect(record).toMatchObject({ reminding: since });
      expect(record.reminded).toBeUndefined();
      // Fresh: being sent elsewhere, not due; looked at again when the mark goes stale.
      now += GRACE - 1;
      expect(reminderSending(record, now)).toBe(true);
      expect(reminderDue(record, now)).toBe(false);
      expect(nextLook(record, now, MIN)).toBe(since + GRACE);
      expect(await takeReminder(boards[1], key, now, GRACE)).toEqual({ taken: false });
      // Stale: its sender stopped before Slack's answer was written; owed again, and taken once.
      now += 1;
      expect(reminderSending(record, now)).toBe(false);
      expect(reminderDue(record, now)).toBe(true);
      const again = await takeReminder(boards[1], key, now, GRACE);
      expect(again).toEqual({ taken: true, since: now, stale: since });
      expect(await takeReminder(boards[0], key, now, GRACE)).toEqual({ taken: false });
      // The stopped sender's late refusal does not clear the new mark.
      await giveBackReminder(boards[0], key, since);
      record = await read(key);
      expect(record.reminding).toBe(now);
    });

    it("taken by Slack: sent, never again, however late", async () => {
      const key = await created();
      const taken = await takeReminder(boards[0], key, now, GRACE);
      expect(taken.taken).toBe(true);
      await reminderSent(boards[0], key);
      const record = await read(key);
      expect(record.reminded).toBe(true);
      expect(record.reminding).toBeUndefined();
      expect(remindAt(record)).toBeUndefined();
      // A sender whose call Slack refused meanwhile changes nothing.
      if (taken.taken) await giveBackReminder(boards[1], key, taken.since);
      for (const later of [now, now + GRACE, now + 30 * MIN]) {
        expect(reminderDue(await read(key), later)).toBe(false);
        expect(await takeReminder(boards[1], key, later, GRACE)).toEqual({ taken: false });
      }
      expect(nextLook(record, now, MIN)).toBe(T0 + 601 * MIN);
    });

    it("refused by Slack: owed again at once, for the next pass", async () => {
      const key = await created();
      const taken = await takeReminder(boards[0], key, now, GRACE);
      if (!taken.taken) throw new Error("not taken");
      await giveBackReminder(boards[0], key, taken.since);
      const record = await read(key);
      expect(record.reminding).toBeUndefined();
      expect(record.reminded).toBeUndefined();
      now += MIN;
      expect(reminderDue(record, now)).toBe(true);
      expect(await takeReminder(boards[1], key, now, GRACE)).toEqual({ taken: true, since: now });
    });

    it("stopped while being sent: a stale mark is not taken again", async () => {
      const key = await created();
      expect((await takeReminder(boards[0], key, now, GRACE)).taken).toBe(true);
      await stopReminders(boards[1], key);
      now += GRACE;
      expect(reminderDue(await read(key), now)).toBe(false);
      expect(await takeReminder(boards[1], key, now, GRACE)).toEqual({ taken: false });
    });

    it("reads a record written before the mark: sent stays sent, owed stays owed", async () => {
      const key = await created();
      const record = await read(key);
      expect(linkSchema.safeParse(record).success).toBe(true);
      expect(record.reminding).toBeUndefined();
      expect(reminderDue(record, now)).toBe(true);
      expect(reminderDue({ ...record, reminded: true }, now)).toBe(false);
    });
  });
}
