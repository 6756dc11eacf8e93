/**
 * A payout approval and its audit entry are one, through the real app (issue 49 item 3): while the
 * store refuses every audit append (a trigger on the trail's table: the payouts' own writes still
 * land), a payout is requested, approved in Slack and sent. The approver is answered and the payout
 * goes out; the entries stay owed. Once the store takes appends again, the pass of the entries owed
 * writes each once, in the order of the acts, and the chain verifies.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PostedMessage } from "../../sandbox/slack.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";
import { connectWithSecret2 } from "../support/secret2.js";
import { viewOf } from "../support/views.js";

const TEAM = SANDBOX_TEAM.id;
const [REQUESTER, ANNA, BORIS] = ["U0REQ", "U0ANNA", "U0BORIS"];
const APPROVAL = "C0PAYOUTS";
const WALLET = "2200700012345678";

describe("a payout's audit entries while the store refuses appends", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0, env: { PAYOUT_RUN_MS: "100" } });
    for (const user of [REQUESTER, ANNA, BORIS]) stack.slack.users[user] = {};
    await connectWithSecret2(stack);
    const policy = await stack.cli(
      ["payouts", "policy", "--team", TEAM, "--approvers", `${ANNA},${BORIS}`, "--channel", APPROVAL]
        .concat(["--two-from", "5000", "--person-day", "10000", "--register-day", "50000"])
        .concat(["--expire", "1h", "--requesters", REQUESTER]),
    );
    expect(policy.code, policy.stderr).toBe(0);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const db = () => new Database(join(stack.dir, "kassa.sqlite"));
  const refuseAppends = (refuse: boolean) => {
    const file = db();
    try {
      file.exec(
        refuse
          ? `CREATE TRIGGER refuse_audit BEFORE INSERT ON kassa_audit_entries
             BEGIN SELECT RAISE(ABORT, 'the store refuses'); END`
          : "DROP TRIGGER refuse_audit",
      );
    } finally {
      file.close();
    }
  };
  const actionsOf = async (id: string) => {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const { entries } = await trail.list(TEAM, { limit: 100 });
      return entries
        .flatMap((listed) => (listed.entry?.object === `payout ${id}` ? [listed.entry.action] : []))
        .reverse();
    } finally {
      await store.close();
    }
  };

  it("approves and sends the payout, then writes each entry owed once, in order, when the store takes them", async () => {
    const { reply } = await stack.ask(`1500 CARDRUBP2P ${WALLET} Supplier invoice 9`, {
      command: "/payout",
      userId: REQUESTER,
      channelId: "C0ASKED",
    });
    expect(JSON.stringify(reply.body)).toContain("Requested");
    await stack.slack.waitForMessages((all) => all.some((message) => message.channel === APPROVAL));
    const card = [...stack.slack.messages.values()].find((message) => message.channel === APPROVAL);
    const id = JSON.stringify((card as PostedMessage).blocks).match(/Payout `([^`]+)`/)?.[1] ?? "";
    expect(await actionsOf(id)).toEqual(["payout.requested"]);

    refuseAppends(true);
    const opened = stack.slack.callsOf("views.open").length;
    await stack.action("kassa_payout_approve", id, { userId: ANNA, channelId: APPROVAL });
    await expect.poll(() => stack.slack.callsOf("views.open").length, { timeout: 3000 }).toBe(opened + 1);
    const body = stack.slack.callsOf("views.open").at(-1)?.body ?? {};
    const view = viewOf(body);
    const result = await stack.submitView({
      view,
      values: { payout_last_four: { value: WALLET.slice(-4) } },
      userId: ANNA,
    });
    expect(result.json).toBeNull();
    await expect.poll(() => stack.fake.payoffs.submits, { timeout: 5000 }).toEqual([id]);
    expect(stack.logs.join("\n")).toContain("could not append the audit entries owed; they stay owed");
    expect(await actionsOf(id)).toEqual(["payout.requested"]);

    refuseAppends(false);
    // The service took the submit before Kassa recorded it: its entry is owed once the worker has.
    await expect
      .poll(
        async () => {
          await stack.pass("auditOwed");
          return actionsOf(id);
        },
        { timeout: 10_000 },
      )
      .toEqual(["payout.requested", "payout.approved", "payout.submitted"]);
    await stack.pass("auditOwed");
    expect(await actionsOf(id)).toEqual(["payout.requested", "payout.approved", "payout.submitted"]);
    const verified = await stack.cli(["audit", "verify", "--team", TEAM]);
    expect(verified.code, verified.stdout).toBe(0);
  });
});
