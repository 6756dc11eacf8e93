/**
 * The links' pass (src/links/pass.ts) on a clock the test moves, against the sandbox's payment
 * service and Slack (test/support/listener-world.ts): a create a stopped process left `creating` is
 * taken as lost once it could be stuck, then found by its marker and posted once; a link never made
 * is looked for a day, then no more; one without the marker is never looked for; a kept record is
 * forgotten when its time is over. Each pass is asked for (pass()): no timer runs while the clock moves.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LinkBook, type LinkOrder, STUCK_AFTER_MS } from "../../src/links/book.js";
import { LinkRunner, LOOK_FOR_MS } from "../../src/links/pass.js";
import { keptUntil, linkKey, readLink } from "../../src/links/record.js";
import { markerOf } from "../../src/payments/marker.js";
import { ADMIN, CHANNEL, type ListenerWorld, listenerWorld, TEAM } from "../support/listener-world.js";
import { ManualClock } from "../support/manual-clock.js";

const ORDER: LinkOrder = {
  team: TEAM,
  amount: "640",
  currency: "RUB",
  lifetimeMinutes: 60,
  creator: ADMIN,
  channel: CHANNEL,
  customer: "Acme Ltd",
  via: "form",
};

describe("the links' pass", () => {
  let world: ListenerWorld;
  let clock: ManualClock;
  let book: LinkBook;
  let runner: LinkRunner;
  beforeEach(async () => {
    world = await listenerWorld();
    clock = new ManualClock(Date.now());
    book = new LinkBook(world.deps.links.board, () => clock.now());
    runner = new LinkRunner(
      { ...world.deps, book, slack: async () => world.client, zone: "Europe/Moscow", checkMs: 60_000 },
      clock,
    );
  });
  afterEach(async () => {
    await runner.close();
    await world.close();
  });

  const history = () => world.fake.requests.filter((request) => request.path === "/v2/history/payments/");
  const cards = (id: string) =>
    world.slack
      .callsOf("chat.postMessage")
      .filter((call) => call.body.channel === CHANNEL && JSON.stringify(call.body).includes(id));

  it("takes a create left mid-way as lost once it could be stuck, finds it by its marker, posts it once", async () => {
    const ref = "stuckref23";
    await book.begin(TEAM, ref, ORDER, true);
    // The process sent the create and stopped before it could write the answer down.
    const created = await world.deps.payments.createInvoice(TEAM, {
      amount: "640",
      currency: "RUB",
      lifetimeMinutes: 60,
      extra: markerOf(ref),
    });
    await runner.pass();
    expect((await book.read(TEAM, ref))?.status).toBe("creating");
    expect(history()).toHaveLength(0);
    await clock.advance(STUCK_AFTER_MS);
    await runner.pass();
    expect(await book.read(TEAM, ref)).toMatchObject({ status: "created", invoiceId: created.id });
    expect(cards(created.id)).toHaveLength(1);
    expect(JSON.stringify(cards(created.id)[0]?.body)).toContain("Acme Ltd");
    await clock.advance(60_000);
    await runner.pass();
    expect(cards(created.id)).toHaveLength(1);
  });

  it("looks for a link never made for a day, each pass, then no more", async () => {
    const ref = "nevermade2";
    await book.begin(TEAM, ref, ORDER, true);
    await book.settle(TEAM, ref, { status: "unsure" });
    await runner.pass();
    const reads = history().length;
    expect(reads).toBeGreaterThan(0);
    await clock.advance(60_000);
    await runner.pass();
    expect(history().length).toBeGreaterThan(reads);
    await clock.advance(LOOK_FOR_MS);
    await runner.pass();
    const after = history().length;
    await clock.advance(60_000);
    await runner.pass();
    expect(history()).toHaveLength(after);
    expect((await book.read(TEAM, ref))?.status).toBe("unsure");
  });

  it("never looks for one whose user's text left no room for the marker", async () => {
    const ref = "unmarked22";
    await book.begin(TEAM, ref, ORDER, false);
    await book.settle(TEAM, ref, { status: "unsure" });
    await runner.pass();
    expect(history()).toHaveLength(0);
  });

  it("forgets a record once it has been kept long enough", async () => {
    const ref = "keptlong22";
    await book.begin(TEAM, ref, ORDER, true);
    const record = await book.settle(TEAM, ref, {
      status: "created",
      invoiceId: "700000001_kept",
      url: "https://pay.crystalpay.io/?i=700000001_kept",
    });
    if (!record) throw new Error("not settled");
    await clock.advance(STUCK_AFTER_MS);
    await runner.pass();
    const board = await book.board();
    expect(await readLink(board, linkKey(TEAM, ref))).toBeDefined();
    await clock.advance(keptUntil(record) - clock.now());
    await runner.pass();
    expect(await readLink(board, linkKey(TEAM, ref))).toBeUndefined();
  });
});
