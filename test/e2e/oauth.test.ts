import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { Stack } from "../../sandbox/stack.js";
import { BOT_SCOPES } from "../../src/app.js";
import { databaseBytes } from "../support/database-bytes.js";

const INSTALLED_TEAM = "T0INSTALLED";
const INSTALLER = "U0INSTALLER";
const TOKEN = `xoxb-installed-${INSTALLED_TEAM}-secret-token`;

describe("installing through OAuth (many workspaces)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ slackMode: "oauth", connect: false });
    stack.slack.nextInstall = { teamId: INSTALLED_TEAM, userId: INSTALLER };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** GET /slack/install, then follow Slack's redirect back with the state and its cookie. */
  async function install(): Promise<Response> {
    const page = await fetch(`${stack.url}/slack/install`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const authorize = /href="(https:\/\/slack\.com\/oauth\/v2\/authorize\?[^"]+)"/
      .exec(html)?.[1]
      ?.replace(/&amp;/g, "&");
    expect(authorize).toBeDefined();
    const params = new URL(authorize ?? "").searchParams;
    expect(params.get("client_id")).toBe("1111.2222");
    expect(params.get("scope")?.split(",")).toEqual(BOT_SCOPES);
    const state = params.get("state") ?? "";
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    return fetch(`${stack.url}/slack/oauth_redirect?code=sandbox-code&state=${encodeURIComponent(state)}`, {
      headers: { cookie },
      redirect: "manual",
    });
  }

  it("tells a workspace that has not installed the app, and calls nothing", async () => {
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: INSTALLED_TEAM });
    expect((reply.body as { response_type?: string }).response_type).toBe("ephemeral");
    expect(JSON.stringify(reply.body)).toContain("not installed in this workspace");
    expect(stack.fake.requests).toHaveLength(0);
  });

  it("rejects a redirect whose state was not issued by this app", async () => {
    const response = await fetch(`${stack.url}/slack/oauth_redirect?code=sandbox-code&state=forged`);
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(stack.slack.callsOf("oauth.v2.access")).toHaveLength(0);
  });

  it("stores the installation, sealed, and then answers that workspace", async () => {
    const response = await install();
    expect(response.status).toBe(200);
    expect(stack.slack.callsOf("oauth.v2.access")).toHaveLength(1);
    // The bot token never sits in the database file in plaintext.
    expect(databaseBytes(stack.env.STORE_URL ?? "").includes(TOKEN)).toBe(false);
    const { ack, reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: INSTALLED_TEAM });
    expect(ack.status).toBe(200);
    expect(JSON.stringify(reply.body)).toContain("/invoice connect");
  });

  it("lets the installer connect the cash register, and Slack calls use the installed token", async () => {
    const ack = await stack.command("connect", { teamId: INSTALLED_TEAM, userId: INSTALLER });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(1);
    const call = stack.slack.callsOf("views.open")[0];
    expect(call?.token).toBe(TOKEN);
    const view = typeof call?.body.view === "string" ? JSON.parse(call.body.view) : {};
    const result = await stack.submitView({
      view,
      teamId: INSTALLED_TEAM,
      userId: INSTALLER,
      values: {
        login: { value: SANDBOX_LOGIN },
        secret: { value: SANDBOX_SECRET },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
      },
    });
    expect(result.json?.response_action).toBe("update");
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: INSTALLED_TEAM });
    expect((reply.body as { response_type?: string }).response_type).toBe("in_channel");
  });

  it("unfurls a payment link shared there with that workspace's installed token", async () => {
    const url = "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm";
    await stack.shareLinks([url], { teamId: INSTALLED_TEAM });
    const [call] = await stack.slack.waitForCalls("chat.unfurl");
    expect(call?.token).toBe(TOKEN);
    expect(Object.keys(JSON.parse(String(call?.body.unfurls)))).toEqual([url]);
  });

  it("forgets the installation on app_uninstalled, so the workspace is refused again", async () => {
    const result = await stack.event({ type: "app_uninstalled" }, { teamId: INSTALLED_TEAM });
    expect(result.status).toBe(200);
    await expect
      .poll(async () => (await stack.cli(["credentials", "list"])).stdout.includes(INSTALLED_TEAM))
      .toBe(false);
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: INSTALLED_TEAM });
    expect(JSON.stringify(reply.body)).toContain("not installed in this workspace");
  });
});

describe("token rotation (OAuth installs with expiring bot tokens)", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ slackMode: "oauth", connect: false });
    // Expires within Bolt's two-hour margin: the next request refreshes it.
    stack.slack.nextInstall = { teamId: "T0ROTATING", userId: "U0ROTATOR", expiresIn: 600 };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("refreshes an expiring bot token, stores the new one sealed, and uses it", async () => {
    const page = await fetch(`${stack.url}/slack/install`);
    const state = /state=([^&"]+)/.exec(await page.text())?.[1] ?? "";
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const installed = await fetch(`${stack.url}/slack/oauth_redirect?code=c&state=${state}`, {
      headers: { cookie },
    });
    expect(installed.status).toBe(200);

    await stack.command("connect", { teamId: "T0ROTATING", userId: "U0ROTATOR" });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(1);
    expect(stack.slack.callsOf("views.open")[0]?.token).toBe("xoxe.xoxb-rotated-1");
    const refreshes = () =>
      stack.slack.callsOf("oauth.v2.access").filter((call) => call.body.grant_type === "refresh_token");
    expect(refreshes()).toHaveLength(1);

    // The refreshed token was stored: the next request uses it without refreshing again.
    await stack.command("connect", { teamId: "T0ROTATING", userId: "U0ROTATOR" });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(2);
    expect(stack.slack.callsOf("views.open")[1]?.token).toBe("xoxe.xoxb-rotated-1");
    expect(refreshes()).toHaveLength(1);
    expect(databaseBytes(stack.env.STORE_URL ?? "").includes("xoxe.xoxb-rotated-1")).toBe(false);
  });

  it("accepts an install link's state once: the same redirect again is refused", async () => {
    const page = await fetch(`${stack.url}/slack/install`);
    const state = /state=([^&"]+)/.exec(await page.text())?.[1] ?? "";
    const cookie = (page.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const redirect = () =>
      fetch(`${stack.url}/slack/oauth_redirect?code=sandbox-code&state=${state}`, {
        headers: { cookie },
        redirect: "manual",
      });
    const before = stack.slack.callsOf("oauth.v2.access").length;
    stack.slack.nextInstall = { teamId: "T0ONCE", userId: INSTALLER };
    expect((await redirect()).status).toBe(200);
    expect(stack.slack.callsOf("oauth.v2.access").length).toBe(before + 1);
    expect((await redirect()).status).toBeGreaterThanOrEqual(400);
    expect(stack.slack.callsOf("oauth.v2.access").length).toBe(before + 1);
    stack.slack.nextInstall = { teamId: INSTALLED_TEAM, userId: INSTALLER };
  });
});
