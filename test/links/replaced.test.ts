/**
 * What replaced a re-issued link's invoice (src/links/replaced.ts), on the links' records in a claim
 * board in memory: the new invoice and who re-issued, read only for an invoice carrying Kassa's
 * marker; nothing (never an error) for a link not re-issued, a copied marker, a new link whose
 * invoice is not known yet, or a store that cannot be read.
 */
import { describe, expect, it, vi } from "vitest";
import { LinkBook, type LinkOrder } from "../../src/links/book.js";
import { markReplaced } from "../../src/links/reissue-record.js";
import { replacementOf } from "../../src/links/replaced.js";
import { markerOf, newRef } from "../../src/payments/marker.js";
import { memoryClaimBoard } from "../support/memory-claim-board.js";

const REGISTER = "T0LINKS";
const ORDER: LinkOrder = {
  team: REGISTER,
  amount: "1500",
  currency: "RUB",
  lifetimeMinutes: 60,
  creator: "U0CREATOR",
  channel: "C0SALES",
  via: "form",
};

async function world() {
  const board = memoryClaimBoard();
  const book = new LinkBook(
    async () => board,
    () => 1_800_000_000_000,
  );
  const reads = vi.fn(book.read.bind(book));
  const warn = vi.fn();
  const deps = { links: { read: reads }, logger: { warn } };
  /** A link created as invoice `id`; its ref. */
  const link = async (id: string | undefined): Promise<string> => {
    const ref = newRef();
    await book.begin(REGISTER, ref, ORDER, true);
    await book.settle(
      REGISTER,
      ref,
      id ? { status: "created", invoiceId: id, url: `https://pay/${id}` } : { status: "unsure" },
    );
    return ref;
  };
  return { book, deps, reads, warn, link };
}

const invoice = (id: string, ref?: string) => ({ id, extra: ref ? `PO-7 ${markerOf(ref)}` : "PO-7" });

describe("what replaced a re-issued link's invoice", () => {
  it("names the new invoice and who re-issued it", async () => {
    const { book, deps, link } = await world();
    const old = await link("700000001_old");
    const next = await link("700000002_new");
    await markReplaced(book, REGISTER, old, { next, user: "U0OTHER" });
    expect(await replacementOf(deps, REGISTER, invoice("700000001_old", old))).toEqual({
      invoiceId: "700000002_new",
      user: "U0OTHER",
    });
  });

  it("reads nothing for an invoice without Kassa's marker", async () => {
    const { deps, reads } = await world();
    expect(await replacementOf(deps, REGISTER, invoice("700000003_plain"))).toBeUndefined();
    expect(await replacementOf(deps, REGISTER, { id: "700000004_none", extra: null })).toBeUndefined();
    expect(reads).not.toHaveBeenCalled();
  });

  it("says nothing for a link not re-issued, a copied marker, or a new link whose invoice is not known yet", async () => {
    const { book, deps, link } = await world();
    const kept = await link("700000005_kept");
    expect(await replacementOf(deps, REGISTER, invoice("700000005_kept", kept))).toBeUndefined();
    const old = await link("700000006_old");
    const next = await link("700000007_new");
    await markReplaced(book, REGISTER, old, { next, user: "U0OTHER" });
    // Another invoice carrying the old one's marker is not the old link's.
    expect(await replacementOf(deps, REGISTER, invoice("700000099_copy", old))).toBeUndefined();
    const lost = await link("700000008_lost");
    const unsure = await link(undefined);
    await markReplaced(book, REGISTER, lost, { next: unsure, user: "U0OTHER" });
    expect(await replacementOf(deps, REGISTER, invoice("700000008_lost", lost))).toBeUndefined();
  });

  it("says nothing, and logs, when the store cannot be read", async () => {
    const warn = vi.fn();
    const deps = { links: { read: () => Promise.reject(new Error("store down")) }, logger: { warn } };
    expect(await replacementOf(deps, REGISTER, invoice("700000009_old", newRef()))).toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
  });
});
