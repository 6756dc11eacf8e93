import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  moscowTime,
  SANDBOX_LOGIN,
  SANDBOX_SECRET,
  type SampleInvoice,
} from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { databaseBytes } from "../support/database-bytes.js";

// An org-wide install on Enterprise Grid, end to end: oauth.v2.access answers with no team and the
// org; each workspace of the org then sends its own team_id with the org's token. Each workspace
// connects its own cash register.

const ORG = "E0GRID";
const WORKSPACE = "T0GRIDA";
const OTHER = "T0GRIDB";
const CLI_ONLY = "T0GRIDC";
const ORG_ADMIN = "W0ORGADMIN";
const ORG_TOKEN = `xoxb-installed-${ORG}-secret-token`;
const CHANNEL = "C0GRIDCARDS";
const FEED = "C0GRIDFEED";

/** An invoice the cash register made just now, not paid yet. */
function unpaid(id: string): SampleInvoice {
  const hours = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));
  return {
    id,
    state: "notpayed",
    type: "purchase",
    currency: "RUB",
    amount: "1500",
    createdAt: hours(0),
    expiredAt: hours(5),
  };
}

describe("an org-wide install on Enterprise Grid", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({
      slackMode: "oauth",
      connect: false,
      env: { WATCH_INTERVAL_MS: "100", FEED_INTERVAL_MS: "200" },
      storeMemoMs: 0,
    });
    stack.slack.nextInstall = {
      teamId: ORG,
      userId: ORG_ADMIN,
      enterpriseId: ORG,
      isEnterpriseInstall: true,
    };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const inOrg = { teamId: WORKSPACE, enterpriseId: ORG };

  it("installs for the whole org: Slack's answer has no team, the org's install is stored", async () => {
    const page = await fetch(`${stack.url}/slack/install`);
    const state = /state=([^&"]+)/.exec(await page.text())?.[1] ?? "";
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const installed = await fetch(`${stack.url}/slack/oauth_redirect?code=c&state=${state}`, {
      headers: { cookie },
    });
    expect(installed.status).toBe(200);
    expect(stack.slack.callsOf("oauth.v2.access")).toHaveLength(1);
    expect(databaseBytes(stack.env.STORE_URL ?? "").includes(ORG_TOKEN)).toBe(false);
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", inOrg);
    expect(JSON.stringify(reply.body)).toContain("/invoice connect");
  });

  it("the org's installer connects a workspace's own cash register, with the org's token naming the workspace", async () => {
    await stack.command("connect", { ...inOrg, userId: ORG_ADMIN });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(1);
    const call = stack.slack.callsOf("views.open")[0];
    expect(call?.token).toBe(ORG_TOKEN);
    expect(call?.body.team_id).toBe(WORKSPACE);
    const view = typeof call?.body.view === "string" ? JSON.parse(call.body.view) : {};
    const saved = await stack.submitView({
      view,
      ...inOrg,
      userId: ORG_ADMIN,
      values: {
        login: { value: SANDBOX_LOGIN },
        secret: { value: SANDBOX_SECRET },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
      },
    });
    expect(saved.json?.response_action).toBe("update");
    expect((await stack.cli(["credentials", "list"])).stdout).toContain(WORKSPACE);
  });

  it("another workspace of the org is not connected by it: it connects its own", async () => {
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: OTHER, enterpriseId: ORG });
    expect(JSON.stringify(reply.body)).toContain("not connected to this workspace's cash register");
  });

  it("a card posted in the workspace is kept live with the org's token and turns Paid", async () => {
    stack.fake.invoices.set("grid_live", unpaid("grid_live"));
    const { reply } = await stack.ask("grid_live", { ...inOrg, channelId: CHANNEL });
    expect(reply.body.via).toBe("chat.postMessage");
    const card = stack.slack.messages.get(`${CHANNEL}:${String(reply.body.ts)}`);
    if (!card) throw new Error("no card posted");
    expect(JSON.stringify(card.blocks)).toContain("Live: Kassa is watching this invoice");
    stack.fake.pay("grid_live");
    await stack.slack.waitForMessages(() => stack.slack.threadOf(CHANNEL, card.ts).length === 1);
    expect(card.text).toContain("Invoice grid_live: Paid");
    const updates = stack.slack.callsOf("chat.update").filter((c) => c.body.channel === CHANNEL);
    expect(updates.length).toBeGreaterThan(0);
    for (const update of updates) {
      expect(update.token).toBe(ORG_TOKEN);
      expect(update.body.team_id).toBe(WORKSPACE);
    }
  });

  it("the workspace's payment feed posts a payment with the org's token", async () => {
    await stack.ask("subscribe", { ...inOrg, userId: ORG_ADMIN, channelId: FEED });
    stack.fake.invoices.set("grid_feed", unpaid("grid_feed"));
    // The feed first sees it unpaid (a pass), then paid.
    await stack.pass("feed");
    stack.fake.pay("grid_feed");
    await stack.slack.waitForMessages(
      (messages) => messages.some((m) => m.channel === FEED && m.text.includes("grid_feed")),
      10_000,
    );
    const post = stack.slack
      .callsOf("chat.postMessage")
      .find((c) => c.body.channel === FEED && String(c.body.text).includes("grid_feed"));
    expect(post?.token).toBe(ORG_TOKEN);
    expect(post?.body.team_id).toBe(WORKSPACE);
  });

  it("a workflow step runs in the workspace with its own function token", async () => {
    const run = await stack.runStep({
      callbackId: "invoice_status",
      inputs: { invoice: "grid_live" },
      ...inOrg,
    });
    const [end] = await stack.slack.waitForCompletion(run.executionId);
    expect(end).toMatchObject({ outcome: "success", token: run.token });
    expect(end?.outputs).toMatchObject({ state: "payed", is_paid: true });
  });

  it("uninstalling from the org forgets every workspace's cash register and the org's install", async () => {
    // A workspace of the org connected only by the operators' CLI and never used: no request of its
    // own ever told Kassa its org; the CLI's --enterprise did.
    const cliOnly = await stack.cli(
      [
        "credentials",
        "set",
        "--team",
        CLI_ONLY,
        "--enterprise",
        ORG,
        "--login",
        SANDBOX_LOGIN,
        "--secret",
        "-",
      ],
      SANDBOX_SECRET,
    );
    expect(cliOnly).toMatchObject({ code: 0 });
    expect((await stack.cli(["credentials", "list"])).stdout).toContain(`${CLI_ONLY} (org ${ORG})`);
    const result = await stack.event({ type: "app_uninstalled" }, { teamId: WORKSPACE, enterpriseId: ORG });
    expect(result.status).toBe(200);
    await expect
      .poll(async () => (await stack.cli(["credentials", "list"])).stdout)
      .toBe("No workspace is connected.\n");
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", inOrg);
    expect(JSON.stringify(reply.body)).toContain("not installed in this workspace");
    expect(stack.logEntries().find((e) => e.event === "app_uninstalled")).toMatchObject({
      outcome: "forgotten",
      enterprise: ORG,
      // The two workspaces Kassa saw in the org, connected or not, and the one the CLI connected.
      workspaces: 3,
    });
  });
});
