/**
 * The watch queue's contract (one queue on the claim board, src/watch/board-queue.ts) in memory and
 * on SQLite: it is family logic with no engine code of its own; the board's, which it stands on, runs
 * on every engine in test/store/claims.test.ts (test/support/engines.ts says which runs where). Two
 * queues on two connections (in memory: one board, two queues) stand for two replicas.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ClaimBoard, openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { BoardWatchQueue } from "../../src/watch/board-queue.js";
import { WATCH_FAMILIES, WATCH_FIELDS } from "../../src/watch/board-state.js";
import {
  MAX_CARDS_PER_WATCH,
  type Watch,
  type WatchCard,
  type WatchQueue,
  type WatchSeed,
} from "../../src/watch/model.js";
import { familyEngines } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";
import { unpaidInvoice as invoice } from "../support/watch-fixtures.js";

const run = randomBytes(4).toString("hex");
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-watch-"));
const ENGINES = familyEngines({ sqlite: join(sqliteDir, "kassa.sqlite"), memory: true }).map((engine) => ({
  ...engine,
  prefix: `kw_${run}`,
}));

afterAll(() => {
  rmSync(sqliteDir, { recursive: true, force: true });
});

const seed = (team: string, id: string): WatchSeed => ({
  team,
  invoiceId: id,
  register: `register-${team}`,
  state: "notpayed",
  amounts: "a0",
  invoice: invoice(id),
});
const card = (channel: string, ts = "1.000100"): WatchCard => ({
  kind: "channel",
  channel,
  ts,
  user: "U0ASKER",
  postedState: "notpayed",
});
const NOW = 1_800_000_000_000;
const limits = (maxPerWorkspace = 10) => ({ maxPerWorkspace, firstDueInMs: 1000, now: NOW });

for (const engine of ENGINES) {
  describe(engine.name, () => {
    const stores: KeyvStore[] = [];
    let queue: WatchQueue;
    /** A second replica's queue. */
    let other: WatchQueue;
    /** The first replica's board, to write what a crash or an older release would leave. */
    let board: ClaimBoard;
    const team = (name: string) => `T${name}${run}`;

    beforeAll(async () => {
      if (engine.name === "memory") {
        board = memoryClaimBoard();
        [queue, other] = [new BoardWatchQueue(board), new BoardWatchQueue(board)];
        return;
      }
      stores.push(await openStore(engine.url ?? ""), await openStore(engine.url ?? ""));
      const boards = await Promise.all(stores.map((store) => openClaimBoard(store, engine.prefix)));
      const [first, second] = boards as [ClaimBoard, ClaimBoard];
      board = first;
      [queue, other] = [new BoardWatchQueue(first), new BoardWatchQueue(second)];
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
    });

    it("one watch per workspace and invoice; cards join it, once each, up to the per-invoice cap", async () => {
      const t = team("A");
      expect(await queue.addCard(seed(t, "inv1"), card("C1"), limits())).toBe("watching");
      expect(await other.addCard(seed(t, "inv1"), card("C2"), limits())).toBe("watching");
      expect(await queue.addCard(seed(t, "inv1"), card("C2"), limits())).toBe("watching");
      expect(await queue.count(t)).toBe(1);
      for (let index = 3; index <= MAX_CARDS_PER_WATCH; index += 1) {
        await queue.addCard(seed(t, "inv1"), card(`C${index}`), limits());
      }
      expect(await queue.addCard(seed(t, "inv1"), card("C99"), limits())).toBe("invoice_full");
      expect(await other.room(t, "inv1", 10)).toBe("invoice_full");
      expect(await other.room(t, "inv2", 10)).toBe("watching");
      expect(await other.room(t, "inv2", 1)).toBe("workspace_full");
      const [claimed] = await queue.claimDue(NOW + 1000, 10, 60_000);
      expect(claimed?.cards).toHaveLength(MAX_CARDS_PER_WATCH);
      expect(claimed?.invoice.amounts.amount).toEqual({ value: "1500", currency: "RUB" });
    });

    it("refuses a new watch past WATCH_MAX_PER_WORKSPACE, and counts per workspace", async () => {
      const t = team("B");
      expect(await queue.addCard(seed(t, "i1"), card("C1"), limits(2))).toBe("watching");
      expect(await other.addCard(seed(t, "i2"), card("C1"), limits(2))).toBe("watching");
      expect(await queue.addCard(seed(t, "i3"), card("C1"), limits(2))).toBe("workspace_full");
      // Joining an existing watch is not a new one.
      expect(await queue.addCard(seed(t, "i1"), card("C2"), limits(2))).toBe("watching");
      expect(await other.count(t)).toBe(2);
      await queue.removeTeam(t);
      expect(await other.count(t)).toBe(0);
    });

    it("gives the workspace's last place to one of two replicas adding at once, and joins two adding one invoice", async () => {
      const t = team("X");
      await queue.addCard(seed(t, "x0"), card("C1"), limits(2));
      const raced = await Promise.all([
        queue.addCard(seed(t, "x1"), card("C1"), limits(2)),
        other.addCard(seed(t, "x2"), card("C1"), limits(2)),
      ]);
      expect(raced.sort()).toEqual(["watching", "workspace_full"]);
      expect(await queue.count(t)).toBe(2);
      const u = team("Y");
      const both = await Promise.all([
        queue.addCard(seed(u, "y1"), card("C1"), limits(1)),
        other.addCard(seed(u, "y1"), card("C2"), limits(1)),
      ]);
      expect(both).toEqual(["watching", "watching"]);
      const [watch] = (await queue.claimDue(NOW + 1000, 100, 1000)).filter((one) => one.team === u);
      expect(watch?.cards.map((one) => one.kind === "channel" && one.channel).sort()).toEqual(["C1", "C2"]);
      expect(await other.count(u)).toBe(1);
      await queue.removeTeam(t);
      await queue.removeTeam(u);
    });

    it("keeps each asker to their share of new watches; joining a watched invoice is never refused", async () => {
      const t = team("S");
      const share = (user: string) => ({ ...limits(10), asker: { user, max: 2 } });
      const by = (channel: string, user: string): WatchCard => ({ ...card(channel), user });
      expect(await queue.addCard(seed(t, "s1"), by("C1", "U0ONE"), share("U0ONE"))).toBe("watching");
      expect(await other.addCard(seed(t, "s2"), by("C2", "U0ONE"), share("U0ONE"))).toBe("watching");
      expect(await queue.room(t, "s3", 10, { user: "U0ONE", max: 2 })).toBe("asker_full");
      expect(await queue.addCard(seed(t, "s3"), by("C3", "U0ONE"), share("U0ONE"))).toBe("asker_full");
      expect(await other.room(t, "s3", 10, { user: "U0TWO", max: 2 })).toBe("watching");
      expect(await other.addCard(seed(t, "s3"), by("C3", "U0TWO"), share("U0TWO"))).toBe("watching");
      // A watch that already exists: one more card of it costs no share.
      expect(await queue.room(t, "s3", 10, { user: "U0ONE", max: 2 })).toBe("watching");
      expect(await queue.addCard(seed(t, "s3"), by("C4", "U0ONE"), share("U0ONE"))).toBe("watching");
      // Stopping a card frees its share.
      await queue.removeCard(t, "s1", "c:C1:1.000100");
      expect(await queue.addCard(seed(t, "s4"), by("C5", "U0ONE"), share("U0ONE"))).toBe("asker_full");
      await queue.removeCard(t, "s3", "c:C4:1.000100");
      expect(await queue.addCard(seed(t, "s4"), by("C5", "U0ONE"), share("U0ONE"))).toBe("watching");
      await queue.removeTeam(t);
    });

    it("claims a due watch for one caller at a time, until the lease runs out", async () => {
      const t = team("C");
      await queue.addCard(seed(t, "lease"), card("C1"), { ...limits(), now: NOW - 10_000_000 });
      const mine = (watches: Array<{ team: string }>) => watches.filter((watch) => watch.team === t);
      const at = NOW - 10_000_000 + 1000;
      const [a, b] = await Promise.all([queue.claimDue(at, 100, 5000), other.claimDue(at, 100, 5000)]);
      expect(mine(a).length + mine(b).length).toBe(1);
      expect(mine(await other.claimDue(at + 4000, 100, 5000))).toHaveLength(0);
      expect(mine(await other.claimDue(at + 5000, 100, 5000))).toHaveLength(1);
      await queue.reschedule(t, "lease", at + 60_000, { intervalMs: 1500, lastCheckedAt: at });
      expect(mine(await queue.claimDue(at + 59_000, 100, 5000))).toHaveLength(0);
      const [again] = mine(await queue.claimDue(at + 60_000, 100, 5000));
      expect(again).toMatchObject({ intervalMs: 1500, lastCheckedAt: at });
      await queue.remove(t, "lease");
    });

    it("gives each claim a token: once another replica claimed the watch, the first one's steps are refused", async () => {
      const t = team("L");
      const start = NOW - 20_000_000;
      await queue.addCard(seed(t, "owner"), card("C1"), { ...limits(), now: start });
      const mine = (watches: Watch[]) => watches.filter((watch) => watch.team === t);
      const [first] = mine(await queue.claimDue(start + 1000, 100, 5000));
      expect(first?.lease).toMatch(/\S/);
      // The holder renews its lease: no one else may claim the watch meanwhile.
      expect(await queue.renew(t, "owner", first?.lease ?? "", start + 20_000)).toBe(true);
      expect(mine(await other.claimDue(start + 10_000, 100, 5000))).toHaveLength(0);
      // It stalls past the renewed lease; another replica claims the watch, with a new token.
      const [second] = mine(await other.claimDue(start + 20_000, 100, 5000));
      expect(second?.lease).toMatch(/\S/);
      expect(second?.lease).not.toBe(first?.lease);
      const stale = first?.lease ?? "";
      const from = { state: "notpayed", amounts: "a0" };
      const to = { state: "payed", amounts: "a1", invoice: { ...invoice("owner"), state: "payed" } };
      expect(await queue.renew(t, "owner", stale, start + 99_000)).toBe(false);
      expect(await queue.tell(t, "owner", from, to, stale)).toBeUndefined();
      expect(await queue.setCard(t, "owner", { ...card("C1"), owed: { redraw: true } }, stale)).toBe(false);
      expect(
        await queue.reschedule(t, "owner", start, { intervalMs: 1000, lastCheckedAt: start }, stale),
      ).toBe(false);
      expect(await queue.remove(t, "owner", stale)).toBe(false);
      expect(await other.count(t)).toBe(1);
      // The current holder's steps go through; rescheduling ends its claim.
      const current = second?.lease ?? "";
      expect(await other.tell(t, "owner", from, to, current)).toEqual([
        { ...card("C1"), owed: { redraw: true } },
      ]);
      expect(await other.setCard(t, "owner", { ...card("C1"), owed: { redraw: true } }, current)).toBe(true);
      const patch = { intervalMs: 1000, lastCheckedAt: start + 20_000 };
      expect(await other.reschedule(t, "owner", start + 30_000, patch, current)).toBe(true);
      expect(await other.remove(t, "owner", current)).toBe(false);
      const [third] = mine(await queue.claimDue(start + 30_000, 100, 5000));
      expect(third).toMatchObject({ state: "payed", cards: [{ owed: { redraw: true } }] });
      expect(await queue.remove(t, "owner", third?.lease)).toBe(true);
      expect(await other.count(t)).toBe(0);
      // Already gone: ended, whoever asks.
      expect(await other.remove(t, "owner", stale)).toBe(true);
    });

    it("tells a change once: of two simultaneous compare-and-sets, one wins", async () => {
      const t = team("D");
      await queue.addCard(seed(t, "tell"), card("C1"), limits());
      const paid = { ...invoice("tell"), state: "payed" };
      const from = { state: "notpayed", amounts: "a0" };
      const to = { state: "payed", amounts: "a1", invoice: paid };
      const results = await Promise.all([queue.tell(t, "tell", from, to), other.tell(t, "tell", from, to)]);
      expect(results.filter(Boolean)).toHaveLength(1);
      expect(await queue.tell(t, "tell", from, to)).toBeUndefined();
      const [claimed] = (await queue.claimDue(NOW + 1000, 100, 1000)).filter((watch) => watch.team === t);
      expect(claimed).toMatchObject({ state: "payed", amounts: "a1" });
      expect(claimed?.invoice.state).toBe("payed");
    });

    it("owes the change, in the same write, to every card stored then: one added after the claim too", async () => {
      const t = team("J");
      await queue.addCard(seed(t, "joined"), card("C1"), limits());
      const [claimed] = (await queue.claimDue(NOW + 1000, 100, 5000)).filter((watch) => watch.team === t);
      expect(claimed?.cards).toHaveLength(1);
      // A second card is posted while the watch is being read.
      expect(await other.addCard(seed(t, "joined"), card("C2"), limits())).toBe("watching");
      const from = { state: "notpayed", amounts: "a0" };
      const notice = { from: "notpayed", to: "payed" };
      const to = { state: "payed", amounts: "a1", invoice: { ...invoice("joined"), state: "payed" }, notice };
      const told = await queue.tell(t, "joined", from, to, claimed?.lease);
      const owed = { redraw: true, note: notice };
      expect(told).toEqual([
        { ...card("C1"), owed },
        { ...card("C2"), owed },
      ]);
      // Written down before any Slack call: the next claim (after a crash, say) finds both owed.
      await queue.reschedule(t, "joined", NOW, { intervalMs: 1000, lastCheckedAt: NOW }, claimed?.lease);
      const [again] = (await other.claimDue(NOW + 2000, 100, 5000)).filter((watch) => watch.team === t);
      expect(again?.cards.map((c) => c.owed)).toEqual([owed, owed]);
    });

    it("keeps what a card is owed across replicas, and never brings back a card that was removed", async () => {
      const t = team("O");
      await queue.addCard(seed(t, "owed"), card("C1"), limits());
      const owed: WatchCard = {
        ...card("C1"),
        owed: { redraw: false, note: { from: "notpayed", to: "payed" }, noteSending: true, attempts: 2 },
      };
      expect(await queue.setCard(t, "owed", owed)).toBe(true);
      const [claimed] = (await other.claimDue(NOW + 1000, 100, 1000)).filter((watch) => watch.team === t);
      expect(claimed?.cards).toEqual([owed]);
      await queue.removeCard(t, "owed", "c:C1:1.000100");
      expect(await other.setCard(t, "owed", owed)).toBe(false);
      expect(await queue.count(t)).toBe(0);
    });

    it("moves a watch's due time earlier only (a payment notification), never later", async () => {
      const t = team("N");
      await queue.addCard(seed(t, "soon"), card("C1"), limits());
      expect(await other.dueBy(t, "soon", NOW + 10)).toBe(true);
      expect((await queue.claimDue(NOW + 10, 100, 60_000)).filter((watch) => watch.team === t)).toHaveLength(
        1,
      );
      // Claimed: due again after its lease; a later "due by" does not move it back.
      expect(await other.dueBy(t, "soon", NOW + 120_000)).toBe(true);
      expect((await queue.claimDue(NOW + 100, 100, 60_000)).filter((watch) => watch.team === t)).toHaveLength(
        0,
      );
      expect(await other.dueBy(t, "missing", NOW)).toBe(false);
    });

    it("keeps a notification that comes while the watch is being read: not claimed twice, due at once after", async () => {
      const t = team("R");
      await queue.addCard(seed(t, "reading"), card("C1"), limits());
      const [claimed] = (await queue.claimDue(NOW + 1000, 100, 60_000)).filter((watch) => watch.team === t);
      expect(claimed?.lease).toEqual(expect.any(String));
      // The payment is notified while that read is in flight (its answer may predate the payment).
      expect(await other.dueBy(t, "reading", NOW + 1010)).toBe(true);
      expect((await other.claimDue(NOW + 1020, 100, 60_000)).filter((watch) => watch.team === t)).toEqual([]);
      // The read ends and asks for its usual next read 30 s on: the notification wins.
      const fields = { intervalMs: 30_000, lastCheckedAt: NOW + 1040 };
      expect(await queue.reschedule(t, "reading", NOW + 31_040, fields, claimed?.lease ?? "")).toBe(true);
      const again = (await other.claimDue(NOW + 1050, 100, 60_000)).filter((watch) => watch.team === t);
      expect(again).toHaveLength(1);
      // Spent: the read after that one keeps its own schedule.
      expect(await other.reschedule(t, "reading", NOW + 31_060, fields, again[0]?.lease ?? "")).toBe(true);
      expect((await queue.claimDue(NOW + 31_000, 100, 60_000)).filter((watch) => watch.team === t)).toEqual(
        [],
      );
      expect(
        (await queue.claimDue(NOW + 31_060, 100, 60_000)).filter((watch) => watch.team === t),
      ).toHaveLength(1);
    });

    it("drops a watch whose stored data cannot be read when it is claimed, and gives its place back", async () => {
      const t = team("G");
      const dropped: number[] = [];
      const watching = new BoardWatchQueue(board, (count) => dropped.push(count));
      await watching.addCard(seed(t, "garbled"), card("C1"), limits(1));
      const key = `${t}:garbled`;
      const stored = await board.readState(WATCH_FAMILIES.data, key, WATCH_FIELDS.data);
      expect(await board.swapState(WATCH_FAMILIES.data, key, WATCH_FIELDS.data, stored, { team: t })).toBe(
        true,
      );
      const claimed = (await watching.claimDue(NOW + 1000, 100, 60_000)).filter((watch) => watch.team === t);
      expect(claimed).toEqual([]);
      expect(dropped).toEqual([1]);
      expect(await board.readState(WATCH_FAMILIES.data, key, WATCH_FIELDS.data)).toBeUndefined();
      expect(await other.count(t)).toBe(0);
      expect(await other.addCard(seed(t, "next"), card("C1"), limits(1))).toBe("watching");
      await other.removeTeam(t);
    });

    it("gives back a place a crash left taken without its watch, once the cap looks reached", async () => {
      const t = team("P");
      // A replica took the place of "lost" a minute ago, then died before creating its watch.
      const index = { lost: { users: ["U0ASKER"], at: NOW - 60_000 } };
      expect(await board.swapState(WATCH_FAMILIES.team, t, WATCH_FIELDS.team, undefined, index)).toBe(true);
      expect(await queue.count(t)).toBe(1);
      // Taken a moment ago as room sees it: kept; a minute on, given back (room answers the card's line).
      expect(await queue.room(t, "fresh", 1, undefined, NOW - 59_000)).toBe("workspace_full");
      expect(await queue.count(t)).toBe(1);
      expect(await queue.room(t, "fresh", 1, undefined, NOW)).toBe("watching");
      expect(await queue.count(t)).toBe(0);
      // addCard gives it back too (a private card asks no room first).
      const emptied = await board.readState(WATCH_FAMILIES.team, t, WATCH_FIELDS.team);
      expect(await board.swapState(WATCH_FAMILIES.team, t, WATCH_FIELDS.team, emptied, index)).toBe(true);
      expect(await other.addCard(seed(t, "fresh"), card("C1"), limits(1))).toBe("watching");
      expect(await queue.count(t)).toBe(1);
      // A place taken just now may be a watch being created: it is kept.
      const now = { ...index, lost: { users: ["U0ASKER"], at: NOW } };
      const current = await board.readState(WATCH_FAMILIES.team, t, WATCH_FIELDS.team);
      const both = { ...(current as object), ...now };
      expect(await board.swapState(WATCH_FAMILIES.team, t, WATCH_FIELDS.team, current, both)).toBe(true);
      expect(await other.addCard(seed(t, "third"), card("C1"), limits(2))).toBe("workspace_full");
      await queue.removeTeam(t);
      expect(await other.count(t)).toBe(0);
    });

    it("forgets a schedule whose watch is gone, and keeps one for a watch created again", async () => {
      const t = team("F");
      await queue.addCard(seed(t, "again"), card("C1"), limits());
      const [claimed] = (await queue.claimDue(NOW + 1000, 100, 60_000)).filter((watch) => watch.team === t);
      // Its last card is stopped while it is read, and a new card starts the watch afresh.
      await other.removeCard(t, "again", "c:C1:1.000100");
      expect(
        await queue.reschedule(
          t,
          "again",
          NOW + 2000,
          { intervalMs: 1000, lastCheckedAt: NOW },
          claimed?.lease,
        ),
      ).toBe(false);
      expect(await other.addCard(seed(t, "again"), card("C2"), { ...limits(), now: NOW + 5000 })).toBe(
        "watching",
      );
      const [fresh] = (await queue.claimDue(NOW + 6000, 100, 60_000)).filter((watch) => watch.team === t);
      expect(fresh?.cards).toEqual([card("C2")]);
      expect(await queue.count(t)).toBe(1);
      await queue.removeTeam(t);
    });

    it("drops the watch with its last card", async () => {
      const t = team("E");
      await queue.addCard(seed(t, "cards"), card("C1"), limits());
      await queue.addCard(seed(t, "cards"), card("C2"), limits());
      await other.removeCard(t, "cards", "c:C1:1.000100");
      expect(await queue.count(t)).toBe(1);
      await other.removeCard(t, "cards", "c:C2:1.000100");
      expect(await queue.count(t)).toBe(0);
      expect(
        (await queue.claimDue(NOW + 10_000, 100, 1000)).filter((watch) => watch.team === t),
      ).toHaveLength(0);
    });

    it("spaces a cash register's reads 1/N s apart across callers, so no second holds more than N", async () => {
      const register = `reg-${run}-${engine.name}`;
      const start = NOW + 7999;
      // Six callers at once, a millisecond apart, at 2 a second, waiting at most 600 ms: two slots
      // are reserved (now and 550 ms on: a tenth over 500), the others get none.
      const waits = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          (index % 2 ? other : queue).takeRead(register, 2, start + index, 600),
        ),
      );
      const slots = waits
        .map((wait, index) => (wait === null ? null : start + index + wait))
        .filter((slot): slot is number => slot !== null)
        .sort((a, b) => a - b);
      // Which caller the engine serves first is its own business (the six race on two
      // connections): the first slot is that caller's own time, the second 550 ms after it.
      const first = slots[0] ?? Number.NaN;
      expect(first).toBeGreaterThanOrEqual(start);
      expect(first).toBeLessThanOrEqual(start + 5);
      expect(slots).toEqual([first, first + 550]);
      // The next free slot is first + 1100: too far for a caller at start + 1 waiting 600 ms.
      expect(await queue.takeRead(register, 2, start + 1, 600)).toBeNull();
      expect(await other.takeRead(register, 2, start + 999, 600)).toBe(first + 1100 - (start + 999));
      expect(await queue.takeRead(register, 2, start + 2000, 0)).toBe(0);
      expect(await queue.takeRead(`${register}-other`, 2, start, 0)).toBe(0);
    });
  });
}

describe("sqlite: watches survive a restart", () => {
  it("reloads the stored watches, cards and last told state", async () => {
    const url = `sqlite://${join(sqliteDir, "restart.sqlite")}`;
    const first = await openStore(url);
    const queue = new BoardWatchQueue(await openClaimBoard(first));
    await queue.addCard(seed("TR", "kept"), card("C1"), limits());
    await queue.tell(
      "TR",
      "kept",
      { state: "notpayed", amounts: "a0" },
      { state: "processing", amounts: "a0", invoice: invoice("kept") },
    );
    await first.close();

    const second = await openStore(url);
    const reopened = new BoardWatchQueue(await openClaimBoard(second));
    expect(await reopened.count("TR")).toBe(1);
    const [watch] = await reopened.claimDue(NOW + 1000, 10, 1000);
    expect(watch).toMatchObject({ team: "TR", invoiceId: "kept", state: "processing", cards: [card("C1")] });
    await second.close();
  });
});
