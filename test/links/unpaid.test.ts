/**
 * What is still unpaid (src/links/days.ts, src/links/unpaid.ts): the day index written by
 * LinkBook.begin and read over a period (in memory and on SQLite), and the page and the digest's
 * tally over the records: open, expired unpaid and not re-issued links, grouped by customer with
 * totals per currency, the page's ones read at the service (paid ones left out).
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LinkBook, type LinkOrder } from "../../src/links/book.js";
import { forgetOldDays, LINK_DAY_FAMILY, refsMadeBetween, utcDay } from "../../src/links/days.js";
import { changeLink, type LinkRecord, linkKey } from "../../src/links/record.js";
import { inOrder, unpaidOf, unpaidPage, unpaidTally } from "../../src/links/unpaid.js";
import { newRef } from "../../src/payments/marker.js";
import { type ClaimBoard, openClaimBoard } from "../../src/store/claims/index.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { familyEngines } from "../support/engines.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const run = randomBytes(4).toString("hex");
const sqliteDir = mkdtempSync(join(tmpdir(), "kassa-unpaid-"));
const ENGINES = familyEngines({ sqlite: join(sqliteDir, "kassa.sqlite"), memory: true });
afterAll(() => rmSync(sqliteDir, { recursive: true, force: true }));

const DAY = 86_400_000;
/** 2027-01-15 10:00 UTC. */
const NOW = Date.UTC(2027, 0, 15, 10);
const REGISTER = "T0UNPAID";
const ORDER: LinkOrder = {
  team: "T0UNPAID",
  amount: "100",
  currency: "RUB",
  lifetimeMinutes: 60,
  creator: "U0CREATOR",
  channel: "C0SALES",
  via: "form",
};

for (const engine of ENGINES) {
  describe(`what is still unpaid (${engine.name})`, () => {
    const stores: KeyvStore[] = [];
    let board: ClaimBoard;
    let book: LinkBook;
    let now = NOW;
    let invoice = 0;
    /** The service's state of each invoice (notpayed unless said); a missing one fails its read. */
    const states = new Map<string, string>();
    const reads: string[] = [];
    const payments = {
      invoice: async (_key: string, id: string) => {
        reads.push(id);
        const state = states.get(id);
        if (state === "fail") throw new Error("no answer");
        return { state: state ?? "notpayed" };
      },
    };

    beforeAll(async () => {
      if (engine.name === "memory") board = memoryClaimBoard();
      else {
        stores.push(await openStore(engine.url ?? ""));
        board = await openClaimBoard(stores[0] as KeyvStore, `ku_${run}`);
      }
      book = new LinkBook(
        async () => board,
        () => now,
      );
    });
    afterAll(async () => {
      await Promise.all(stores.map((store) => store.close()));
    });

    /** A created link made at `at` (its page open for `minutes`), with `more` of the record's fields. */
    async function made(
      at: number,
      order: Partial<LinkOrder>,
      more: Partial<LinkRecord> = {},
      register = REGISTER,
    ) {
      now = at;
      const ref = newRef();
      await book.begin(register, ref, { ...ORDER, ...order }, true);
      invoice += 1;
      const invoiceId = `8000000${String(invoice).padStart(2, "0")}_x`;
      await book.settle(register, ref, {
        status: "created",
        invoiceId,
        url: `https://pay.example/?i=${invoiceId}`,
      });
      if (Object.keys(more).length > 0)
        await changeLink(board, linkKey(register, ref), (stored) => ({
          next: { ...(stored.value as LinkRecord), ...more },
          result: undefined,
        }));
      now = NOW;
      return { ref, invoiceId };
    }

    it("the day index lists each link once, by the days of a period, and forgets a day once its links' records are gone", async () => {
      const register = "T0UNPAID~days";
      const first = await made(NOW - 2 * DAY, {}, {}, register);
      const second = await made(NOW - DAY + 60_000, {}, {}, register);
      const third = await made(NOW, {}, {}, register);
      // A second begin of one ref (a replica's, refused) lists it once.
      await expect(book.begin(register, third.ref, ORDER, true)).rejects.toThrow(/exists/);
      expect(await refsMadeBetween(board, register, NOW - 3 * DAY, NOW + 1)).toEqual([
        first.ref,
        second.ref,
        third.ref,
      ]);
      expect(await refsMadeBetween(board, register, NOW - DAY, NOW + 1)).toEqual([second.ref, third.ref]);
      expect(await refsMadeBetween(board, "T0UNPAID~other", NOW - 3 * DAY, NOW + 1)).toEqual([]);
      await forgetOldDays(board, NOW + 10 * DAY);
      expect(await refsMadeBetween(board, register, NOW - 3 * DAY, NOW + 1)).toHaveLength(3);
      // 92 days after the last of a day's links could have closed.
      await forgetOldDays(board, Date.parse(`${utcDay(NOW)}T00:00:00Z`) + 97 * DAY);
      expect(await refsMadeBetween(board, register, NOW - 3 * DAY, NOW + 1)).toEqual([]);
      expect(await board.claimDue(LINK_DAY_FAMILY, NOW + 200 * DAY, 1000, 100)).toEqual([]);
    });

    it("a page: open and expired unpaid links by customer with totals per currency; paid, re-issued and failed ones left out", async () => {
      const acme = await made(NOW - 30 * 60_000, { customer: "Acme", amount: "1500.50" });
      const acmeUsd = await made(
        NOW - 2 * DAY,
        { customer: "Acme", amount: "20", currency: "USD" },
        { outcome: "expired" },
      );
      const paidAtExpiry = await made(NOW - 2 * DAY, { customer: "Acme" }, { outcome: "paid" });
      const reissued = await made(
        NOW - 3 * DAY,
        { customer: "Acme" },
        { outcome: "expired", replacedBy: newRef() },
      );
      const paidOpen = await made(NOW - 10 * 60_000, { customer: "Globex", amount: "300" });
      const closedUnknown = await made(NOW - DAY, { customer: "Globex", amount: "700" });
      const nobody = await made(NOW - 5 * DAY, { amount: "42" }, { outcome: "expired" });
      now = NOW;
      await book
        .begin(REGISTER, newRef(), ORDER, true)
        .then((record) => book.settle(REGISTER, record.ref, { status: "failed" }));
      states.set(paidOpen.invoiceId, "payed");
      reads.length = 0;
      const page = await unpaidPage(
        { links: book, payments },
        { registerKey: REGISTER, from: NOW - 30 * DAY, to: NOW + 1, page: 1, pageSize: 10, now: NOW },
      );
      const shown = page.groups.map((group) => ({
        customer: group.customer,
        count: group.count,
        totals: group.totals,
        rows: group.rows.map((row) => [row.invoiceId, row.known]),
      }));
      expect(shown).toEqual([
        {
          customer: "Acme",
          count: 2,
          totals: [
            { value: "1500.5", currency: "RUB" },
            { value: "20", currency: "USD" },
          ],
          rows: [
            [acme.invoiceId, "open"],
            [acmeUsd.invoiceId, "expired"],
          ],
        },
        {
          customer: "Globex",
          count: 1,
          totals: [{ value: "700", currency: "RUB" }],
          rows: [[closedUnknown.invoiceId, "closed"]],
        },
        {
          customer: undefined,
          count: 1,
          totals: [{ value: "42", currency: "RUB" }],
          rows: [[nobody.invoiceId, "expired"]],
        },
      ]);
      expect(page.count).toBe(4);
      // Only the open and the closed-but-not-told ones were read; expired ones are the pass's word.
      expect(reads.sort()).toEqual([acme.invoiceId, paidOpen.invoiceId, closedUnknown.invoiceId].sort());
      expect(reads).not.toContain(paidAtExpiry.invoiceId);
      expect(reads).not.toContain(reissued.invoiceId);
      const filtered = await unpaidPage(
        { links: book, payments },
        {
          registerKey: REGISTER,
          from: NOW - 30 * DAY,
          to: NOW + 1,
          customer: "glob",
          page: 1,
          pageSize: 10,
          now: NOW,
        },
      );
      expect(filtered.groups.map((group) => group.customer)).toEqual(["Globex"]);
      // The digest's tally: one open (the paid one read), two expired and one closed unpaid.
      expect(await unpaidTally({ links: book, payments }, REGISTER, NOW - 30 * DAY, NOW)).toEqual({
        open: 1,
        openTotals: [{ value: "1500.5", currency: "RUB" }],
        expired: 3,
      });
    });

    it("pages of 100+ links: only the page's open ones read; a customer spanning pages keeps its whole totals, marked continued", async () => {
      const register = "T0UNPAID~many";
      for (let index = 0; index < 105; index += 1)
        await made(
          NOW - index * 60_000,
          { customer: index < 15 ? "Big" : `C${index}`, amount: "10" },
          {},
          register,
        );
      reads.length = 0;
      const query = { registerKey: register, from: NOW - DAY, to: NOW + 1, pageSize: 10, now: NOW };
      const second = await unpaidPage({ links: book, payments }, { ...query, page: 2 });
      expect(reads).toHaveLength(10);
      expect(second.hasMore).toBe(true);
      expect(second.count).toBe(105);
      expect(second.groups[0]).toMatchObject({ customer: "Big", count: 15, continued: true });
      expect(second.groups[0]?.rows).toHaveLength(5);
      expect(second.groups[0]?.totals).toEqual([{ value: "150", currency: "RUB" }]);
      const last = await unpaidPage({ links: book, payments }, { ...query, page: 11 });
      expect(last.hasMore).toBe(false);
      expect(last.groups.flatMap((group) => group.rows)).toHaveLength(5);
    });
  });
}

describe("the order of unpaid links", () => {
  it("customers by name, none last; open ones first, soonest to close; then the latest expired", () => {
    const record = (customer: string | undefined, expiresAt: number, outcome?: "expired"): LinkRecord => ({
      ...ORDER,
      ...(customer ? { customer } : {}),
      ...(outcome ? { outcome } : {}),
      v: 1,
      ref: newRef(),
      status: "created",
      marked: true,
      invoiceId: `inv_${expiresAt}`,
      createdAt: expiresAt - 3_600_000,
      expiresAt,
    });
    const links = unpaidOf(
      [
        record(undefined, NOW + 5),
        record("beta", NOW - 10, "expired"),
        record("Alpha", NOW + 20),
        record("beta", NOW - 5, "expired"),
        record("beta", NOW + 30),
        record("beta", NOW + 10),
      ],
      NOW,
    );
    expect(inOrder(links).map((link) => `${link.record.customer ?? "-"} ${link.expiresAt - NOW}`)).toEqual([
      "Alpha 20",
      "beta 10",
      "beta 30",
      "beta -5",
      "beta -10",
      "- 5",
    ]);
  });
});
