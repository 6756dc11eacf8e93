/**
 * A payment link's record (src/links/record.ts, src/links/book.ts), family logic on the claim board
 * in memory and on SQLite (test/support/engines.ts): written `creating` before the create is sent,
 * settled once, taken as lost, found once, superseded once by Create now; two books on two
 * connections stand for two replicas.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LinkBook, type LinkOrder, STUCK_AFTER_MS } from "../../src/links/book.js";
import {
  KEPT_AFTER_CLOSE_MS,
  keptUntil,
  keyParts,
  LINK_FAMILY,
  linkKey,
  readLink,
} from "../../src/links/record.js";
import { newRef } from "../../src/payments/marker.js";
import { type ClaimBoard, openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { familyEngines } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const run = randomBytes(4).toString("hex");
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-links-"));
const ENGINES = familyEngines({ sqlite: join(sqliteDir, "kassa.sqlite"), memory: true });
afterAll(() => rmSync(sqliteDir, { recursive: true, force: true }));

const NOW = 1_800_000_000_000;
const REGISTER = "T0LINKS~shop2";
const ORDER: LinkOrder = {
  team: "T0LINKS",
  register: "shop2",
  customer: "Acme Ltd",
  email: "pay@acme.example",
  amount: "1500.50",
  currency: "USD",
  description: "Order 10232",
  extra: "PO-7",
  lifetimeMinutes: 60,
  creator: "U0CREATOR",
  channel: "C0SALES",
  via: "form",
};

for (const engine of ENGINES) {
  describe(`a link's record (${engine.name})`, () => {
    const stores: KeyvStore[] = [];
    let board: ClaimBoard;
    let book: LinkBook;
    let other: LinkBook;
    let now = NOW;

    beforeAll(async () => {
      const clock = () => now;
      if (engine.name === "memory") {
        board = memoryClaimBoard();
        [book, other] = [new LinkBook(async () => board, clock), new LinkBook(async () => board, clock)];
        return;
      }
      stores.push(await openStore(engine.url ?? ""), await openStore(engine.url ?? ""));
      const boards = await Promise.all(stores.map((store) => openClaimBoard(store, `kl_${run}`)));
      const [first, second] = boards as [ClaimBoard, ClaimBoard];
      board = first;
      [book, other] = [new LinkBook(async () => first, clock), new LinkBook(async () => second, clock)];
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
    });

    it("is written creating before anything is sent, never over another, and due once it could be stuck", async () => {
      now = NOW;
      const ref = newRef();
      const record = await book.begin(REGISTER, ref, ORDER, true);
      expect(record).toMatchObject({ v: 1, ref, status: "creating", marked: true, createdAt: NOW, ...ORDER });
      expect(await other.read(REGISTER, ref)).toEqual(record);
      await expect(other.begin(REGISTER, ref, { ...ORDER, amount: "1" }, true)).rejects.toThrow(/exists/);
      expect(await board.claimDue(LINK_FAMILY, NOW + STUCK_AFTER_MS - 1, 1000, 100)).toEqual([]);
      const due = await board.claimDue(LINK_FAMILY, NOW + STUCK_AFTER_MS, 1000, 100);
      expect(due.map((item) => item.key)).toContain(linkKey(REGISTER, ref));
    });

    it("settles once: created with its invoice and when its page closes; a later settle changes nothing", async () => {
      const ref = newRef();
      await book.begin(REGISTER, ref, ORDER, true);
      const created = await book.settle(REGISTER, ref, {
        status: "created",
        invoiceId: "700000001_abc",
        url: "https://pay.crystalpay.io/?i=700000001_abc",
      });
      expect(created).toMatchObject({
        status: "created",
        invoiceId: "700000001_abc",
        expiresAt: NOW + 3_600_000,
      });
      expect(await other.settle(REGISTER, ref, { status: "failed" })).toBeUndefined();
      expect((await book.read(REGISTER, ref))?.status).toBe("created");
      expect(keptUntil(created ?? record())).toBe(NOW + 3_600_000 + KEPT_AFTER_CLOSE_MS);
    });

    it("an unsure one is due at once; found once, whichever replica finds it", async () => {
      const ref = newRef();
      await book.begin(REGISTER, ref, ORDER, true);
      expect((await book.settle(REGISTER, ref, { status: "unsure" }))?.status).toBe("unsure");
      const due = await board.claimDue(LINK_FAMILY, NOW, 1000, 100);
      expect(due.map((item) => item.key)).toContain(linkKey(REGISTER, ref));
      const key = linkKey(REGISTER, ref);
      const finds = await Promise.all([
        book.found(key, "700000002_def", "https://pay.crystalpay.io/?i=700000002_def"),
        other.found(key, "700000002_def", "https://pay.crystalpay.io/?i=700000002_def"),
      ]);
      expect(finds.filter(Boolean)).toHaveLength(1);
      expect(await readLink(board, key)).toMatchObject({ status: "created", invoiceId: "700000002_def" });
    });

    it("an answer that comes after the record was taken as lost still names its invoice", async () => {
      const ref = newRef();
      await book.begin(REGISTER, ref, ORDER, true);
      expect((await other.lost(linkKey(REGISTER, ref)))?.status).toBe("unsure");
      const settled = await book.settle(REGISTER, ref, {
        status: "created",
        invoiceId: "700000003_ghi",
        url: "https://pay.crystalpay.io/?i=700000003_ghi",
      });
      expect(settled?.status).toBe("created");
      expect((await book.lost(linkKey(REGISTER, ref)))?.status).toBe("created");
    });

    it("Create now supersedes an unsure link once, however many clicks; a found one is not superseded", async () => {
      const ref = newRef();
      await book.begin(REGISTER, ref, ORDER, true);
      await book.settle(REGISTER, ref, { status: "unsure" });
      const [first, second] = await Promise.all([
        book.supersede(REGISTER, ref, newRef()),
        other.supersede(REGISTER, ref, newRef()),
      ]);
      expect([first?.kind, second?.kind].sort()).toEqual(["already", "superseded"]);
      const found = newRef();
      await book.begin(REGISTER, found, ORDER, true);
      await book.settle(REGISTER, found, { status: "unsure" });
      await other.found(
        linkKey(REGISTER, found),
        "700000004_jkl",
        "https://pay.crystalpay.io/?i=700000004_jkl",
      );
      expect((await book.supersede(REGISTER, found, newRef())).kind).toBe("found");
      expect((await book.supersede(REGISTER, newRef(), newRef())).kind).toBe("gone");
    });

    it("refuses a record its schema does not take (nothing is written)", async () => {
      const ref = newRef();
      await expect(book.begin(REGISTER, ref, { ...ORDER, amount: "1e5" }, true)).rejects.toThrow();
      await expect(book.begin(REGISTER, ref, { ...ORDER, customer: "x".repeat(81) }, true)).rejects.toThrow();
      expect(await book.read(REGISTER, ref)).toBeUndefined();
    });
  });
}

describe("a link's key", () => {
  it("names its register and ref, main's (the team id) or another's", () => {
    expect(keyParts(linkKey("T0LINKS", "abcdefgh23"))).toEqual({ registerKey: "T0LINKS", ref: "abcdefgh23" });
    expect(keyParts(linkKey("T0LINKS~shop2", "abcdefgh23"))).toEqual({
      registerKey: "T0LINKS~shop2",
      ref: "abcdefgh23",
    });
    expect(keyParts("T0LINKS:NOTAREF")).toBeUndefined();
    expect(keyParts("abcdefgh23")).toBeUndefined();
  });
});

function record() {
  return {
    ...ORDER,
    v: 1 as const,
    ref: "abcdefgh23",
    status: "created" as const,
    marked: true,
    createdAt: NOW,
  };
}
