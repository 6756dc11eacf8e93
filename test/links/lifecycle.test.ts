/**
 * A created link's life in the links' pass (src/links/lifecycle.ts) on a clock the test moves,
 * against the sandbox's payment service and Slack (test/support/listener-world.ts): its reminder at
 * its time, once, even on two replicas at once; none when it is paid; a deactivated or workflow
 * creator's in the card's channel; a refused one sent the next pass; one whose sender stopped
 * mid-send left alone while its mark is fresh, then sent once; how it ended written once its
 * page closed; a pair re-issued early and paid twice told once; a schedule stopped stays quiet.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LinkBook, type LinkOrder } from "../../src/links/book.js";
import { lookAtCreated } from "../../src/links/lifecycle.js";
import { AFTER_EXPIRY_MS, REMIND_GRACE_MS } from "../../src/links/next-look.js";
import { LinkRunner } from "../../src/links/pass.js";
import { changeLink, linkKey } from "../../src/links/record.js";
import { stopReminding } from "../../src/links/stop-reminding.js";
import { ADMIN, CHANNEL, type ListenerWorld, listenerWorld, TEAM } from "../support/listener-world.js";
import { ManualClock } from "../support/manual-clock.js";

const HOUR = 3_600_000;
const ORDER: LinkOrder = {
  team: TEAM,
  amount: "1500",
  currency: "RUB",
  lifetimeMinutes: 600,
  creator: ADMIN,
  channel: CHANNEL,
  customer: "Acme <!channel> Ltd",
  via: "form",
  remind: 60,
};

describe("a created link's life in the pass", () => {
  let world: ListenerWorld;
  let clock: ManualClock;
  let book: LinkBook;
  let runner: LinkRunner;
  let deps: ConstructorParameters<typeof LinkRunner>[0];
  let refs = 0;
  beforeEach(async () => {
    world = await listenerWorld();
    clock = new ManualClock(Date.now());
    book = new LinkBook(world.deps.links.board, () => clock.now());
    deps = { ...world.deps, book, slack: async () => world.client, zone: "Europe/Moscow", checkMs: 60_000 };
    runner = new LinkRunner(deps, clock);
    world.slack.users[ADMIN] = { tz: "Asia/Yekaterinburg" };
  });
  afterEach(async () => {
    await runner.close();
    await world.close();
  });

  /** A link made now at the sandbox, its record created. */
  async function made(order: Partial<LinkOrder> = {}): Promise<{ ref: string; id: string }> {
    refs += 1;
    const ref = `liferef${"abcdefghijklmnopqrstuvwxyz"[refs]}a2`.slice(0, 10);
    const whole = { ...ORDER, ...order };
    const created = await world.deps.payments.createInvoice(TEAM, {
      amount: whole.amount,
      currency: whole.currency,
      lifetimeMinutes: whole.lifetimeMinutes,
    });
    await book.begin(TEAM, ref, whole, true);
    await book.settle(TEAM, ref, { status: "created", invoiceId: created.id, url: created.url });
    return { ref, id: created.id };
  }
  const posts = (channel: string) =>
    world.slack.callsOf("chat.postMessage").filter((call) => call.body.channel === channel);
  const text = (call: { body: Record<string, unknown> } | undefined) => JSON.stringify(call?.body ?? {});

  it("reminds once at its time, in the creator's messages, even with two replicas at once", async () => {
    const { ref, id } = await made();
    const second = new LinkRunner(deps, clock);
    await runner.pass();
    await clock.advance(9 * HOUR - 60_000);
    await Promise.all([runner.pass(), second.pass()]);
    expect(posts(ADMIN)).toHaveLength(0);
    await clock.advance(60_000);
    await Promise.all([runner.pass(), second.pass()]);
    expect(posts(ADMIN)).toHaveLength(1);
    const reminder = text(posts(ADMIN)[0]);
    expect(reminder).toContain(id);
    expect(reminder).toContain("1,500.00 RUB");
    expect(reminder).toContain("Acme &lt;!channel&gt; Ltd");
    expect(reminder).toContain("Asia/Yekaterinburg");
    for (const action of ["kassa_link_copy", "kassa_link_reissue", "kassa_link_stop_reminding"])
      expect(reminder).toContain(action);
    // A replica whose claim lapsed, looking at the same moment: the compare-and-set lets one through.
    const record = await book.read(TEAM, ref);
    if (!record) throw new Error("no record");
    await Promise.all([
      lookAtCreated(deps, linkKey(TEAM, ref), TEAM, { ...record, reminded: undefined }, clock.now()),
      lookAtCreated(deps, linkKey(TEAM, ref), TEAM, { ...record, reminded: undefined }, clock.now()),
    ]);
    await clock.advance(30 * 60_000);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(1);
    await second.close();
  });

  it("sends no reminder for a paid link, and writes that it was paid", async () => {
    const { ref, id } = await made();
    world.fake.pay(id);
    await clock.advance(9 * HOUR);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(0);
    expect(await book.read(TEAM, ref)).toMatchObject({ outcome: "paid" });
  });

  it("reminds in the card's channel when the creator left, or a workflow made it", async () => {
    world.slack.users[ADMIN] = { deleted: true };
    await made({ lifetimeMinutes: 120, remind: 60 });
    world.slack.users.U0GONE = {};
    world.slack.failChannel("U0GONE", "account_inactive");
    await made({ lifetimeMinutes: 120, remind: 60, creator: "U0GONE" });
    await made({ lifetimeMinutes: 120, remind: 60, creator: "workflow" });
    await clock.advance(HOUR);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(0);
    const here = posts(CHANNEL).map(text);
    expect(here).toHaveLength(3);
    expect(here.filter((body) => body.includes("is no longer in the workspace"))).toHaveLength(2);
    expect(here.filter((body) => body.includes("A workflow made this link"))).toHaveLength(1);
  });

  it("gives a refused reminder back: the next pass sends it", async () => {
    await made();
    world.slack.failChannel(ADMIN, "fatal_error");
    await clock.advance(9 * HOUR);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(1);
    world.slack.failChannel(ADMIN, null);
    await clock.advance(60_000);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(2);
    await clock.advance(60_000);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(2);
  });

  it("a sender that stopped before Slack's answer: left alone while its mark is fresh, then sent once", async () => {
    const { ref } = await made();
    await clock.advance(9 * HOUR);
    // As a take whose process died before Slack answered leaves it.
    const since = clock.now();
    await changeLink(await book.board(), linkKey(TEAM, ref), (stored) =>
      stored.value ? { next: { ...stored.value, reminding: since }, result: 0 } : { result: 0 },
    );
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(0);
    await clock.advance(REMIND_GRACE_MS - 60_000);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(0);
    await clock.advance(60_000);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(1);
    expect(await book.read(TEAM, ref)).toMatchObject({ reminded: true });
    expect((await book.read(TEAM, ref))?.reminding).toBeUndefined();
    await clock.advance(REMIND_GRACE_MS);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(1);
  });

  it("writes how it ended a minute after its page closed, once, without reading the service again", async () => {
    const { ref } = await made({ remind: 0 });
    await clock.advance(10 * HOUR);
    await runner.pass();
    expect((await book.read(TEAM, ref))?.outcome).toBeUndefined();
    await clock.advance(AFTER_EXPIRY_MS);
    await runner.pass();
    expect(await book.read(TEAM, ref)).toMatchObject({ outcome: "expired" });
    const reads = world.fake.requests.length;
    await clock.advance(HOUR);
    await runner.pass();
    expect(world.fake.requests).toHaveLength(reads);
  });

  it("tells once when a link and its early re-issue were both paid", async () => {
    const first = await made({ remind: 0 });
    const board = await book.board();
    await clock.advance(HOUR);
    const second = await made({ remind: 0, replaces: first.ref });
    // As the re-issue writes it (its own module): the first marked replaced, its card known.
    await changeLink(board, linkKey(TEAM, first.ref), (stored) =>
      stored.value
        ? {
            next: { ...stored.value, replacedBy: second.ref, card: { channel: CHANNEL, ts: "1.000100" } },
            result: 0,
          }
        : { result: 0 },
    );
    await runner.pass();
    world.fake.pay(first.id);
    await clock.advance(60_000);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(0);
    world.fake.pay(second.id);
    await clock.advance(60_000);
    await runner.pass();
    await clock.advance(60_000);
    await runner.pass();
    const alerts = world.slack
      .callsOf("chat.postMessage")
      .filter((call) => text(call).includes("Paid twice"));
    expect(alerts.map((call) => [call.body.channel, call.body.thread_ts])).toEqual([
      [CHANNEL, "1.000100"],
      [ADMIN, undefined],
    ]);
    expect(text(alerts[0])).toContain(first.id);
    expect(text(alerts[0])).toContain(second.id);
    expect(text(alerts[0])).toContain("may need refunding");
  });

  it("Stop reminding on a schedule's link keeps the schedule's later links quiet", async () => {
    const earlier = await made({ scheduleId: "sched23abc" });
    await stopReminding(book, TEAM, earlier.ref, { by: ADMIN, at: clock.now() });
    await made({ scheduleId: "sched23abc" });
    await made({ scheduleId: "otherschd2" });
    await clock.advance(9 * HOUR);
    await runner.pass();
    expect(posts(ADMIN)).toHaveLength(1);
  });
});
