/**
 * Payout batches when Slack refuses or fails (issue 52), through the real app against the sandbox:
 * an approval channel that refuses the batch's card (Kassa not in it, or not found) ends the batch
 * (every quote cancelled, audited) and tells its requester why and what to do, once; a card update
 * and a result file Slack answered HTTP 500, `ratelimited` or never answered (every call under its
 * deadline) are delivered once Slack is back, each once; the requester's direct message refused does
 * not keep the thread's file back, nor the thread's refusal the requester's. The worker runs only when
 * asked (a pass); the clock is moved, nothing waits for it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";
import { clockReading } from "../support/manual-clock.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [REQUESTER, ANNA, BORIS] = ["U0REQ", "U0ANNA", "U0BORIS"];
const APPROVAL = "C0PAYOUTS";
const DM = `D${REQUESTER.slice(1)}`;
const METHOD = "CARDRUBP2P";
/** Past the follower's next look after Slack did not take something (retryMs: 30 s). */
const RETRY_MS = 31_000;

let offsetMs = 0;

describe("payout batches when Slack refuses or fails", () => {
  let stack: Stack;
  let wallet = 2200700010000000;
  beforeAll(async () => {
    stack = await Stack.start({
      storeMemoMs: 0,
      // Every Slack call's deadline at its shortest: a call Slack never answers ends in a second.
      env: { PAYOUT_RUN_MS: "600000", BALANCE_CACHE_TTL_MS: "0", SLACK_TIMEOUT_MS: "1000" },
      clock: clockReading(() => new Date(Date.now() + offsetMs)),
    });
    for (const user of [REQUESTER, ANNA, BORIS]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
    const policy = await stack.cli(
      ["payouts", "policy", "--team", TEAM, "--approvers", [ANNA, BORIS].join(","), "--channel", APPROVAL]
        .concat(["--two-from", "10000", "--person-day", "900000", "--register-day", "900000"])
        .concat(["--requesters", REQUESTER, "--expire", "1h"]),
    );
    expect(policy.code, policy.stderr).toBe(0);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const text = (message: PostedMessage | undefined) =>
    JSON.stringify(message?.blocks ?? []) + (message?.text ?? "");
  const cards = () =>
    [...stack.slack.messages.values()].filter(
      (message) =>
        message.channel === APPROVAL && !message.threadTs && text(message).includes("Batch payout"),
    );
  const dms = () => [...stack.slack.messages.values()].filter((message) => message.channel === REQUESTER);
  const postsTo = (channel: string) =>
    stack.slack.callsOf("chat.postMessage").filter((call) => call.body.channel === channel).length;
  /** Each card's batch, read off its buttons while it had some. */
  const batches = new Map<PostedMessage, string>();
  /** The result files of `card`'s batch shared in `channel` (in the card's thread, when it is the approval channel). */
  const filesIn = (channel: string, card: PostedMessage) =>
    stack.slack.files
      .shared()
      .filter(
        (file) =>
          file.filename === `batch-${batches.get(card)}.csv` &&
          file.channel === channel &&
          (channel !== APPROVAL || file.threadTs === card.ts),
      );
  const latest = (card: PostedMessage) => text(stack.slack.messages.get(`${card.channel}:${card.ts}`));

  /** `/payout batch` with `count` rows of 1,000 RUB (fee from the balance), each a new wallet. */
  async function ask(count: number): Promise<void> {
    const opened = stack.slack.callsOf("views.open").length;
    await stack.command("batch", { command: "/payout", userId: REQUESTER, channelId: "C0ASKED" });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
    const form = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    const rows = Array.from({ length: count }, (_, row) => {
      wallet += 1;
      return `${METHOD}\t${wallet}\t1000\tbalance\tROW-${row + 1}`;
    });
    const values = { batch_rows: { value: rows.join("\n") }, batch_reason: { value: "Slack trouble" } };
    expect((await stack.submitView({ view: form, values, userId: REQUESTER })).json).toBeNull();
  }

  /** A batch of two rows asked, its card posted, approved by two: the card. */
  async function approvedBatch(): Promise<PostedMessage> {
    const before = cards().length;
    await ask(2);
    await stack.slack.waitForMessages(() => cards().length > before);
    const card = cards().at(-1) as PostedMessage;
    const id = text(card).match(/"value":"([a-z2-7]{10})"/)?.[1] ?? "";
    batches.set(card, id);
    for (const approver of [ANNA, BORIS]) {
      const opened = stack.slack.callsOf("views.open").length;
      await stack.action("kassa_batch_approve", id, { userId: approver, channelId: APPROVAL });
      await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
      const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
      const done = await stack.submitView({
        view,
        values: { batch_typed: { value: "2/2000" } },
        userId: approver,
      });
      expect(done.json).toBeNull();
    }
    await expect.poll(() => latest(card)).toContain("Approved");
    return card;
  }

  /** The rows of `card`'s batch sent by the worker and paid at the service. */
  async function sendAndPay(card: PostedMessage): Promise<void> {
    const before = stack.fake.payoffs.submits.length;
    await stack.pass("payouts", 2);
    const sent = stack.fake.payoffs.submits.slice(before);
    expect(sent).toHaveLength(2);
    for (const id of sent) stack.fake.payoffs.finish(id, "payed");
    offsetMs += 61_000;
    await stack.pass("payouts", 2);
    expect(card.ts).toBeTruthy();
  }

  async function entries(): Promise<AuditEntry[]> {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const page = await trail.list(TEAM, { limit: 500 });
      return page.entries.flatMap((listed) => (listed.entry ? [listed.entry] : [])).reverse();
    } finally {
      await store.close();
    }
  }

  it.each(["not_in_channel", "channel_not_found"])(
    "an approval channel that refuses the card (%s): the batch is cancelled, its quotes too, and its requester is told why, once",
    async (code) => {
      stack.slack.failChannel(APPROVAL, code);
      try {
        const tries = postsTo(APPROVAL);
        const quotes = stack.fake.payoffs.all.size;
        const told = dms().length;
        await ask(2);
        await expect.poll(() => postsTo(APPROVAL)).toBeGreaterThan(tries);
        const quoted = [...stack.fake.payoffs.all.values()].slice(quotes);
        expect(quoted).toHaveLength(2);
        // The follower (a pass) ends it once the form's own work has written the refusal down.
        await expect
          .poll(async () => {
            await stack.pass("payouts");
            return quoted.map((payoff) => payoff.state);
          })
          .toEqual(["canceled", "canceled"]);
        const said = dms()
          .slice(told)
          .map((message) => message.text);
        expect(said).toHaveLength(2);
        expect(said[0]).toContain("asking the service for quotes");
        expect(said[1]).toContain(
          `could not be shown for approval in <#${APPROVAL}>: Kassa is not in that channel`,
        );
        expect(said[1]).toContain(`Invite Kassa to <#${APPROVAL}>`);
        const act = (await entries()).filter((entry) => entry.action === "batch.cancelled").at(-1);
        expect([act?.actor, act?.outcome]).toEqual(["kassa", "done"]);
        expect(act?.reason).toContain(code);
        // Its id never reached a card; a stale approval of it is refused all the same.
        const id = act?.object.replace("batch ", "") ?? "";
        const late = await stack.action("kassa_batch_approve", id, { userId: ANNA, channelId: APPROVAL });
        expect(JSON.stringify((await stack.slack.waitForReply(late.responseId)).body)).toContain("cancelled");
        // Nothing more: no card tried again, no second word, no result file.
        const after = {
          posts: postsTo(APPROVAL),
          dms: dms().length,
          files: stack.slack.files.shared().length,
        };
        for (let look = 0; look < 3; look += 1) {
          offsetMs += RETRY_MS;
          await stack.pass("payouts");
        }
        expect({
          posts: postsTo(APPROVAL),
          dms: dms().length,
          files: stack.slack.files.shared().length,
        }).toEqual(after);
        expect(stack.fake.payoffs.submits.filter((id) => quoted.some((one) => one.id === id))).toEqual([]);
      } finally {
        stack.slack.failChannel(APPROVAL, null);
      }
    },
  );

  it.each(["500", "ratelimited", "hang"] as const)(
    "Slack in trouble (%s) for the card's updates and the thread's file: both come once it is back, each once",
    async (mode) => {
      const card = await approvedBatch();
      const methods = ["chat.update", "files.completeUploadExternal"];
      stack.slack.troubleChannel(APPROVAL, { mode, methods });
      try {
        await sendAndPay(card);
        expect(latest(card)).not.toContain("2 paid");
        expect(filesIn(APPROVAL, card)).toHaveLength(0);
        // The requester's file does not wait for the thread's.
        expect(filesIn(DM, card)).toHaveLength(1);
        offsetMs += RETRY_MS;
        await stack.pass("payouts");
        expect(filesIn(APPROVAL, card)).toHaveLength(0);
      } finally {
        stack.slack.troubleChannel(APPROVAL, null);
      }
      // Slack said when (Retry-After: a second): tried again then, not half a minute later.
      offsetMs += mode === "ratelimited" ? 2_000 : RETRY_MS;
      await stack.pass("payouts");
      expect(latest(card)).toContain("2 paid");
      expect(latest(card)).toContain("Done: every row is at its end");
      expect(filesIn(APPROVAL, card)).toHaveLength(1);
      for (let look = 0; look < 3; look += 1) {
        offsetMs += RETRY_MS;
        await stack.pass("payouts");
      }
      expect(filesIn(APPROVAL, card)).toHaveLength(1);
      expect(filesIn(DM, card)).toHaveLength(1);
    },
  );

  it("a card's first post Slack never answered is posted by the follower, once", async () => {
    const before = cards().length;
    stack.slack.troubleChannel(APPROVAL, { mode: "hang", methods: ["chat.postMessage"], times: 1 });
    try {
      const tries = postsTo(APPROVAL);
      await ask(1);
      await expect.poll(() => postsTo(APPROVAL)).toBe(tries + 1);
      await expect
        .poll(async () => {
          await stack.pass("payouts");
          return cards().length;
        })
        .toBe(before + 1);
    } finally {
      stack.slack.troubleChannel(APPROVAL, null);
    }
    for (let look = 0; look < 2; look += 1) {
      offsetMs += RETRY_MS;
      await stack.pass("payouts");
    }
    expect(cards()).toHaveLength(before + 1);
    expect(latest(cards().at(-1) as PostedMessage)).toContain("Waiting for approval");
  });

  it("a requester Kassa cannot write to (deactivated) does not keep the thread's file back, and is not tried forever", async () => {
    const card = await approvedBatch();
    stack.slack.failApi("conversations.open", "user_disabled");
    try {
      await sendAndPay(card);
      expect(latest(card)).toContain("2 paid");
      expect(filesIn(APPROVAL, card)).toHaveLength(1);
      const opens = stack.slack.callsOf("conversations.open").length;
      for (let look = 0; look < 3; look += 1) {
        offsetMs += RETRY_MS;
        await stack.pass("payouts");
      }
      expect(stack.slack.callsOf("conversations.open").length).toBe(opens);
    } finally {
      stack.slack.failApi("conversations.open", null);
    }
    expect(filesIn(APPROVAL, card)).toHaveLength(1);
    expect(filesIn(DM, card)).toHaveLength(0);
  });

  it("a thread Kassa can no longer post in does not keep the requester's file back", async () => {
    const card = await approvedBatch();
    stack.slack.failChannel(APPROVAL, "not_in_channel");
    try {
      await sendAndPay(card);
      expect(filesIn(DM, card)).toHaveLength(1);
      expect(filesIn(APPROVAL, card)).toHaveLength(0);
      const shares = stack.slack.callsOf("files.completeUploadExternal").length;
      for (let look = 0; look < 3; look += 1) {
        offsetMs += RETRY_MS;
        await stack.pass("payouts");
      }
      expect(stack.slack.callsOf("files.completeUploadExternal").length).toBe(shares);
    } finally {
      stack.slack.failChannel(APPROVAL, null);
    }
    expect(filesIn(DM, card)).toHaveLength(1);
  });
});
