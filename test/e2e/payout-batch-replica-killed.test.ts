/**
 * A replica killed with kill -9 in the middle of a batch's sends (issue 52, item 3): "a replica
 * killed after 2 of the sends: after restart each id has exactly one submit". A 5-row batch (new
 * wallets: two approvers) is made and approved through the app in a process of its own
 * (sandbox/replica-entry.ts), whose payout worker starts sending the rows; the fake service kills it
 * right after it took the 2nd submit, before its answer (the strongest case: the send arrived, its
 * answer is lost). A survivor replica on the same store, its clock past the dead one's leases and the
 * send's grace, finds the rows: the 2nd read back from the service (never sent again), the others
 * sent once each; every row followed to its end, the batch's card counting them all, its result file
 * in the thread once. On SQLite (a file both processes open, of this test alone). Not on the shared
 * Redis and PostgreSQL: payouts live under the store's one prefix there, and a survivor whose clock
 * runs minutes ahead would take the payouts of other test files running at the same time (the
 * claims on those engines are held by test/store/claims.test.ts and the payouts' replica tests).
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SALT, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import type { PostedMessage } from "../../sandbox/slack.js";
import type { Stack } from "../../sandbox/stack.js";
import { payoutTimingFor } from "../../src/payouts/request-deps.js";
import { readRequest } from "../../src/payouts/request-model.js";
import { type RunningServer, startServer } from "../../src/server.js";
import { openClaimBoard } from "../../src/store/claims/index.js";
import { openStore } from "../../src/store/keyv.js";
import { REPLICA_ENTRY, stackInItsOwnProcess } from "../support/app-process.js";
import { clockReading } from "../support/manual-clock.js";
import { viewOf } from "../support/views.js";

const run = randomBytes(4).toString("hex");
const [REQUESTER, ANNA, BORIS] = ["U0REQ", "U0ANNA", "U0BORIS"];
const APPROVAL = "C0PAYOUTS";
const METHOD = "CARDRUBP2P";
/** Five new wallets (not trusted recipients: two approvers), 1,000 to 1,400 RUB, 6,000 RUB in all. */
const ROWS = [0, 1, 2, 3, 4].map((index) => ({
  wallet: `22007000${String(index + 1).repeat(4)}${String(9 - index).repeat(4)}`,
  amount: String(1000 + 100 * index),
}));
const TYPED = "5/6000";

/** Each row's payout request's status as stored now, counted. */
async function statusesOf(storeUrl: string, ids: string[]): Promise<Record<string, number>> {
  const store = await openStore(storeUrl);
  try {
    const board = await openClaimBoard(store);
    const counted: Record<string, number> = {};
    for (const id of ids) {
      const status = (await readRequest(board, id))?.request.status ?? "gone";
      counted[status] = (counted[status] ?? 0) + 1;
    }
    return counted;
  } finally {
    await store.close();
  }
}

const text = (message: PostedMessage | undefined) =>
  JSON.stringify(message?.blocks ?? []) + (message?.text ?? "");

describe("a batch whose replica is killed mid-send, sqlite", () => {
  const team = `T0BKLSQ${run.toUpperCase()}`;
  let stack: Stack | undefined;
  let killed: ChildProcess | undefined;
  let survivor: RunningServer | undefined;
  afterAll(async () => {
    killed?.kill("SIGKILL");
    await survivor?.stop();
    await stack?.cli(["credentials", "remove", "--team", team]);
    await stack?.stop();
  });

  /** Waits until `done`, polling every 25 ms. */
  async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
    await expect.poll(done, { timeout: timeoutMs, interval: 25 }).toBe(true);
  }

  it("sends each row exactly once after the restart, follows every row to its end and tells the result once", async () => {
    const started = await stackInItsOwnProcess(
      {
        // The killed replica's worker looks every 100 ms: its sends start as soon as the batch is approved.
        PAYOUT_RUN_MS: "100",
        BALANCE_CACHE_TTL_MS: "0",
      },
      { connect: false, entry: REPLICA_ENTRY, fake: { slowMs: 250 } },
    );
    stack = started.stack;
    killed = started.child;
    const running = stack;
    for (const user of [REQUESTER, ANNA, BORIS]) running.slack.users[user] = {};
    const connected = await running.cli(
      ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", SANDBOX_SECRET].concat([
        "--salt",
        "-",
      ]),
      SANDBOX_SALT,
    );
    expect(connected.code, connected.stderr).toBe(0);
    const policy = await running.cli(
      ["payouts", "policy", "--team", team, "--approvers", [ANNA, BORIS].join(","), "--channel", APPROVAL]
        .concat(["--two-from", "10000", "--person-day", "500000", "--register-day", "900000"])
        .concat(["--requesters", REQUESTER, "--expire", "1h"]),
    );
    expect(policy.code, policy.stderr).toBe(0);

    const lastView = () => viewOf(running.slack.callsOf("views.open").at(-1)?.body ?? {});
    /** Opens a modal with a command or a button; the modal Kassa opened. */
    async function opened(ask: () => Promise<unknown>) {
      const before = running.slack.callsOf("views.open").length;
      await ask();
      await until(() => running.slack.callsOf("views.open").length === before + 1);
      return lastView();
    }

    // The batch, pasted: method and wallet, amount, fee, reference.
    const form = await opened(() =>
      running.command("batch", {
        command: "/payout",
        userId: REQUESTER,
        channelId: "C0ASKED",
        teamId: team,
      }),
    );
    expect(form.callback_id).toBe("kassa_batch_form");
    const pasted = ROWS.map(
      (row, index) => `${METHOD}\t${row.wallet}\t${row.amount}\tbalance\tK-${index + 1}`,
    );
    const submitted = await running.submitView({
      view: form,
      values: { batch_rows: { value: pasted.join("\n") }, batch_reason: { value: "November partners" } },
      userId: REQUESTER,
      teamId: team,
    });
    expect(submitted.json).toBeNull();
    const cardOf = () =>
      [...running.slack.messages.values()].find(
        (message) =>
          message.channel === APPROVAL && !message.threadTs && text(message).includes("kassa_batch_approve"),
      );
    await until(() => cardOf() !== undefined);
    const card = cardOf() as PostedMessage;
    const batchId = text(card).match(/"value":"([a-z2-7]{10})"/)?.[1] ?? "";
    expect(text(card)).toContain("Needs *2 approvals*");
    const ids = [...running.fake.payoffs.all.keys()];
    expect(ids).toHaveLength(5);

    // The killed replica dies right after the service took its 2nd submit, before the answer. Each
    // submit takes 250 ms: the 2nd approval (its rows approved before it is answered) is answered first.
    const exited = new Promise((resolve) => killed?.once("exit", resolve));
    running.fake.payoffs.faults.submit = "slow";
    running.fake.payoffs.afterCall = (call) => {
      if (call === "submit" && running.fake.payoffs.submits.length === 2) killed?.kill("SIGKILL");
    };
    for (const approver of [ANNA, BORIS]) {
      const modal = await opened(() =>
        running.action("kassa_batch_approve", batchId, {
          userId: approver,
          channelId: APPROVAL,
          teamId: team,
        }),
      );
      const approved = await running.submitView({
        view: modal,
        values: { batch_typed: { value: TYPED } },
        userId: approver,
        teamId: team,
      });
      expect(approved.json).toBeNull();
    }
    await exited;
    running.fake.payoffs.afterCall = null;
    delete running.fake.payoffs.faults.submit;
    const sentBefore = [...running.fake.payoffs.submits];
    expect(sentBefore).toHaveLength(2);
    // As the dead replica left them: the 1st recorded sent, the 2nd marked "submitting" (its answer
    // never came back), the other three approved and not sent.
    expect(await statusesOf(running.env.STORE_URL ?? "", ids)).toEqual({
      submitted: 1,
      submitting: 1,
      approved: 3,
    });

    // The survivor, on the same store: its clock past the dead replica's claims and its send's grace.
    const { leaseMs, graceMs } = payoutTimingFor(Number(running.env.PAYMENTS_TIMEOUT_MS));
    let offsetMs = Math.max(leaseMs, graceMs) + 1000;
    survivor = await startServer(
      { ...running.env, PORT: "0", PAYOUT_RUN_MS: "600000" },
      {
        logDestination: { write: () => undefined },
        paymentsRetryDelayMs: 20,
        storeMemoMs: 0,
        clock: clockReading(() => new Date(Date.now() + offsetMs)),
      },
    );
    const worker = survivor.passes;
    const passes = async (rounds: number) => {
      for (let round = 0; round < rounds; round += 1) await worker.payouts();
    };
    await passes(2);
    // Every row sent, each exactly once: the 2nd read back from the service, not sent again.
    expect(running.fake.payoffs.submits.slice(0, 2)).toEqual(sentBefore);
    expect([...running.fake.payoffs.submits].sort()).toEqual([...ids].sort());
    await expect.poll(() => text(card)).toContain("5 of 5 sent");

    // The service pays them out; the survivor follows each row to its end, and the batch ends.
    for (const id of ids) running.fake.payoffs.finish(id, "payed");
    offsetMs += 61_000;
    await passes(2);
    await expect.poll(() => text(card)).toContain("Done: every row is at its end");
    expect(text(card)).toContain("5 paid");
    const inThread = () =>
      running.slack.files.shared().filter((file) => file.channel === APPROVAL && file.threadTs === card.ts);
    await until(() => inThread().length === 1);
    const csv = inThread()[0]?.bytes?.toString("utf8") ?? "";
    for (const id of ids) expect(csv).toContain(id);

    // More runs later change nothing: no send again, the result told once.
    offsetMs += 61_000;
    await passes(3);
    expect(running.fake.payoffs.submits).toHaveLength(5);
    expect(new Set(running.fake.payoffs.submits).size).toBe(5);
    // Not even tried again: the service refuses a second submit of a payout, so its calls are counted.
    const submitCalls = running.fake.requests
      .filter((request) => /\/payoff\/submit\/?$/.test(request.path))
      .map((request) => String(request.body?.id));
    expect(submitCalls.sort()).toEqual([...ids].sort());
    expect(inThread()).toHaveLength(1);
  }, 60_000);
});
