import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { databaseBytes } from "../support/database-bytes.js";

type Message = { response_type?: string; text?: string; replace_original?: boolean; blocks?: unknown[] };
type View = {
  type: string;
  callback_id?: string;
  private_metadata?: string;
  blocks: Array<Record<string, unknown>>;
};
const message = (body: Record<string, unknown>) => body as Message;
const viewOf = (body: Record<string, unknown>) =>
  (typeof body.view === "string" ? JSON.parse(body.view) : body.view) as View;

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";
const OPERATOR_PICK = "U0LISTED";
const NEW_TEAM = "T0NEWTEAM";

describe("connecting the cash register from Slack", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ env: { ADMIN_USER_IDS: OPERATOR_PICK }, fake: { slowMs: 2600 } });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** Runs /invoice connect as `userId` and returns the modal Slack was asked to open. */
  async function openModal(userId: string, teamId = NEW_TEAM): Promise<View> {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.command("connect", { userId, teamId });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    const call = stack.slack.callsOf("views.open").at(-1);
    expect(call?.body.trigger_id).toMatch(/\.trigger$/);
    return viewOf(call?.body ?? {});
  }

  const form = (login: string, secret: string | null, version = "v2", visibility = "channel") => ({
    login: { value: login },
    secret: { value: secret },
    api_version: { selected: version },
    visibility: { selected: visibility },
  });

  it("refuses a member, saying who can do it, and opens nothing", async () => {
    const before = stack.slack.callsOf("views.open").length;
    const { reply } = await stack.ask("connect", { userId: MEMBER, teamId: NEW_TEAM });
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(message(reply.body).text).toContain(
      "Only workspace admins and owners can connect the cash register",
    );
    // Finance staff are not shown the operator's setting names.
    expect(JSON.stringify(reply.body)).not.toContain("ADMIN_USER_IDS");
    expect(JSON.stringify(reply.body)).toContain("the people the Kassa operator has named");
    expect(stack.slack.callsOf("views.open").length).toBe(before);
  });

  it("refuses when Slack cannot say who is an admin (users.info fails)", async () => {
    stack.slack.usersInfoError = "missing_scope";
    try {
      const { reply } = await stack.ask("connect", { userId: ADMIN, teamId: NEW_TEAM });
      expect(message(reply.body).text).toContain("Only workspace admins");
    } finally {
      stack.slack.usersInfoError = null;
    }
  });

  it("opens the modal for an admin, asking users.info, with no secret in it", async () => {
    const view = await openModal(ADMIN);
    expect(view.callback_id).toBe("kassa_connect");
    expect(stack.slack.callsOf("users.info").at(-1)?.body.user).toBe(ADMIN);
    const secret = view.blocks.find((block) => block.block_id === "secret");
    expect(secret).toMatchObject({ optional: false, element: { type: "plain_text_input" } });
    expect(JSON.stringify(view)).not.toContain('initial_value":"sandbox-secret');
  });

  it("opens it for someone in ADMIN_USER_IDS without asking users.info", async () => {
    const before = stack.slack.callsOf("users.info").length;
    await openModal(OPERATOR_PICK);
    expect(stack.slack.callsOf("users.info").length).toBe(before);
  });

  it("shows the service's refusal next to the secret and saves nothing", async () => {
    const view = await openModal(ADMIN);
    const result = await stack.submitView({
      view,
      values: form(SANDBOX_LOGIN, "wrong-secret"),
      userId: ADMIN,
      teamId: NEW_TEAM,
    });
    expect(result.status).toBe(200);
    expect(result.json).toEqual({
      response_action: "errors",
      errors: { secret: "The payment service refused them: Invalid auth credentials" },
    });
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: NEW_TEAM });
    expect(message(reply.body).text).toContain(
      "Kassa is not connected to this workspace's cash register yet",
    );
  });

  it("refuses a submission whose form metadata was tampered with or names another workspace", async () => {
    const view = await openModal(ADMIN);
    for (const metadata of ["not json", JSON.stringify({ from: "command", t: "T0SOMEONEELSE" })]) {
      const result = await stack.submitView({
        view: { ...view, private_metadata: metadata },
        values: form(SANDBOX_LOGIN, SANDBOX_SECRET),
        userId: ADMIN,
        teamId: NEW_TEAM,
      });
      expect(result.json).toEqual({
        response_action: "errors",
        errors: { login: "This form is out of date. Close it and open it again." },
      });
    }
    const { reply } = await stack.ask("status", { teamId: NEW_TEAM });
    expect(message(reply.body).text).toBe("No cash register is connected.");
  });

  it("checks the submitter again: a member's signed submission saves nothing and tries nothing", async () => {
    const view = await openModal(ADMIN);
    const requestsBefore = stack.fake.requests.length;
    const result = await stack.submitView({
      view,
      values: form(SANDBOX_LOGIN, SANDBOX_SECRET),
      userId: MEMBER,
      teamId: NEW_TEAM,
    });
    expect(result.json).toMatchObject({ response_action: "errors", errors: { login: expect.any(String) } });
    expect(JSON.stringify(result.json)).toContain("Nothing was saved");
    expect(stack.fake.requests.length).toBe(requestsBefore);
    const { reply } = await stack.ask("status", { teamId: NEW_TEAM });
    expect(message(reply.body).text).toBe("No cash register is connected.");
  });

  it("asks for a login and a secret when they are missing", async () => {
    const view = await openModal(ADMIN);
    const noLogin = await stack.submitView({
      view,
      values: form("  ", "x"),
      userId: ADMIN,
      teamId: NEW_TEAM,
    });
    expect(noLogin.json).toMatchObject({ response_action: "errors", errors: { login: expect.any(String) } });
    const noSecret = await stack.submitView({
      view,
      values: form(SANDBOX_LOGIN, null),
      userId: ADMIN,
      teamId: NEW_TEAM,
    });
    expect(noSecret.json).toMatchObject({
      response_action: "errors",
      errors: { secret: expect.any(String) },
    });
  });

  it("checks, saves and confirms good credentials; /invoice then works", async () => {
    const view = await openModal(ADMIN);
    const result = await stack.submitView({
      view,
      values: form(SANDBOX_LOGIN, SANDBOX_SECRET),
      userId: ADMIN,
      teamId: NEW_TEAM,
    });
    expect(result.json?.response_action).toBe("update");
    const confirmation = JSON.stringify(result.json?.view);
    expect(confirmation).toContain("Connected");
    expect(confirmation).toContain("20 payment methods");
    expect(confirmation).not.toContain(SANDBOX_SECRET);
    expect(stack.fake.requests.at(-1)?.path).toBe("/v2/method/list/");
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: NEW_TEAM });
    expect(message(reply.body).response_type).toBe("in_channel");
    // The secret is encrypted at rest.
    expect(databaseBytes(stack.env.STORE_URL ?? "").includes(SANDBOX_SECRET)).toBe(false);
  });

  it("takes an optional Secret 2 and never shows it again", async () => {
    const SALT = "connect-modal-salt-5c2e";
    const first = await openModal(ADMIN);
    expect(first.blocks.find((block) => block.block_id === "salt")).toMatchObject({ optional: true });
    const saved = await stack.submitView({
      view: first,
      values: { ...form(SANDBOX_LOGIN, SANDBOX_SECRET), salt: { value: SALT } },
      userId: ADMIN,
      teamId: NEW_TEAM,
    });
    expect(saved.json?.response_action).toBe("update");
    expect(JSON.stringify(saved.json)).not.toContain(SALT);
    expect(databaseBytes(stack.env.STORE_URL ?? "").includes(SALT)).toBe(false);
    const again = await openModal(ADMIN);
    expect(JSON.stringify(again)).not.toContain(SALT);
    expect(JSON.stringify(again.blocks.find((block) => block.block_id === "salt"))).toContain(
      "Stored. Leave blank",
    );
    // Without PUBLIC_URL the workspace has no address, and /invoice status says why.
    const { reply } = await stack.ask("status", { userId: ADMIN, teamId: NEW_TEAM });
    expect(JSON.stringify(reply.body)).toContain("Kassa has no public address");
    const list = await stack.cli(["credentials", "list"]);
    expect(list.stdout).toMatch(new RegExp(`${NEW_TEAM}.*with Secret 2`));
  });

  it("/invoice status shows the connection, login masked, to anyone", async () => {
    const { reply } = await stack.ask("status", { userId: MEMBER, teamId: NEW_TEAM });
    const text = JSON.stringify(reply.body);
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(text).toContain("Connected");
    expect(text).toContain("`sa***er`");
    expect(text).not.toContain(SANDBOX_LOGIN);
    expect(text).toContain(`by <@${ADMIN}>`);
    expect(text).toContain("Workspace admins and owners can change this.");
  });

  it("keeps the stored secret when an update leaves it blank, and applies the new version and visibility", async () => {
    const view = await openModal(ADMIN);
    const secret = view.blocks.find((block) => block.block_id === "secret");
    expect(secret).toMatchObject({ optional: true });
    expect(JSON.stringify(view)).toContain(`"initial_value":"${SANDBOX_LOGIN}"`);
    const result = await stack.submitView({
      view,
      values: form(SANDBOX_LOGIN, "", "v3", "private"),
      userId: ADMIN,
      teamId: NEW_TEAM,
    });
    expect(result.json?.response_action).toBe("update");
    expect(stack.fake.requests.at(-1)?.path).toBe("/v3/method/list/");
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: NEW_TEAM });
    expect(stack.fake.requests.at(-1)?.path).toBe("/v3/invoice/info/");
    // This workspace chose private cards.
    expect(message(reply.body).response_type).toBe("ephemeral");
    expect(JSON.stringify(reply.body)).toContain("invoice_share");
  });

  it("answers a slow service with a checking screen, then updates the modal", async () => {
    stack.fake.methodsFault = "slow";
    try {
      const view = await openModal(ADMIN, "T0SLOWTEAM");
      const before = stack.slack.callsOf("views.update").length;
      const result = await stack.submitView({
        view,
        values: form(SANDBOX_LOGIN, SANDBOX_SECRET),
        userId: ADMIN,
        teamId: "T0SLOWTEAM",
        viewId: "V0SLOW",
      });
      expect(result.json?.response_action).toBe("update");
      expect(JSON.stringify(result.json?.view)).toContain("Checking");
      await expect.poll(() => stack.slack.callsOf("views.update").length, { timeout: 8000 }).toBe(before + 1);
      const update = stack.slack.callsOf("views.update").at(-1);
      expect(update?.body.view_id).toBe("V0SLOW");
      expect(JSON.stringify(update?.body.view)).toContain("Connected");
    } finally {
      stack.fake.methodsFault = null;
    }
  });

  it("disconnects after a confirmation, by an admin only", async () => {
    const asked = await stack.ask("disconnect", { userId: ADMIN, teamId: NEW_TEAM });
    expect(JSON.stringify(asked.reply.body)).toContain("kassa_disconnect");
    expectWithinBlockKitLimits(asked.reply.body);
    const button = JSON.stringify(asked.reply.body)
      .match(/"value":"(\{\\"t\\":\\"T0NEWTEAM\\"\})"/)?.[1]
      ?.replace(/\\"/g, '"');
    expect(button).toBe('{"t":"T0NEWTEAM"}');

    const refused = await stack.press("kassa_disconnect", button ?? "", { userId: MEMBER, teamId: NEW_TEAM });
    expect(message(refused.reply.body).text).toContain("Only workspace admins and owners can disconnect");
    expect(message((await stack.ask("status", { teamId: NEW_TEAM })).reply.body).text).toContain(
      "is connected",
    );

    const done = await stack.press("kassa_disconnect", button ?? "", { userId: ADMIN, teamId: NEW_TEAM });
    expect(message(done.reply.body).replace_original).toBe(true);
    expect(JSON.stringify(done.reply.body)).toContain(`Disconnected by <@${ADMIN}>`);
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: NEW_TEAM });
    expect(JSON.stringify(reply.body)).toContain("/invoice connect");
  });

  it("publishes App Home with status, usage, and buttons only for admins", async () => {
    await stack.event({ type: "app_home_opened", user: ADMIN, channel: "D0HOME", tab: "home" });
    await expect
      .poll(() => stack.slack.callsOf("views.publish").some((call) => call.body.user_id === ADMIN))
      .toBe(true);
    const adminHome = viewOf(
      stack.slack
        .callsOf("views.publish")
        .filter((call) => call.body.user_id === ADMIN)
        .at(-1)?.body ?? {},
    );
    expect(adminHome.type).toBe("home");
    expect(JSON.stringify(adminHome)).toContain("Connected");
    expect(JSON.stringify(adminHome)).toContain("kassa_open_connect");
    expect(JSON.stringify(adminHome)).toContain("kassa_disconnect");
    expect(JSON.stringify(adminHome)).toContain("/paymethods");

    await stack.event({ type: "app_home_opened", user: MEMBER, channel: "D0HOME2", tab: "home" });
    await expect
      .poll(() => stack.slack.callsOf("views.publish").some((call) => call.body.user_id === MEMBER))
      .toBe(true);
    const memberHome = JSON.stringify(
      viewOf(
        stack.slack
          .callsOf("views.publish")
          .filter((call) => call.body.user_id === MEMBER)
          .at(-1)?.body ?? {},
      ),
    );
    expect(memberHome).not.toContain("kassa_open_connect");
    expect(memberHome).not.toContain("kassa_disconnect");
  });

  it("handles an event Slack delivers again (same event_id) once", async () => {
    const user = "U0HOMEAGAIN";
    const event = { type: "app_home_opened", user, channel: "D0HOME3", tab: "home" };
    const publishes = () => stack.slack.callsOf("views.publish").filter((call) => call.body.user_id === user);
    expect((await stack.event(event, { eventId: "Ev0SAMEEVENT" })).status).toBe(200);
    await expect.poll(() => publishes().length).toBe(1);
    expect((await stack.event(event, { eventId: "Ev0SAMEEVENT", retryNum: 1 })).status).toBe(200);
    expect((await stack.event(event, { eventId: "Ev0SAMEEVENT", retryNum: 2 })).status).toBe(200);
    // A new event of the same kind is handled: only redeliveries are dropped.
    await stack.event(event, { eventId: "Ev0NEXTEVENT" });
    await expect.poll(() => publishes().length).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(publishes()).toHaveLength(2);
  });

  it("Disconnect on App Home: a member is shown the tab again; an admin's press disconnects and the tab says so", async () => {
    const team = "T0HOMEDISC";
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
      SANDBOX_SECRET,
    );
    const publishedFor = (user: string) =>
      stack.slack.callsOf("views.publish").filter((call) => call.body.user_id === user);
    const value = JSON.stringify({ t: team });

    const memberBefore = publishedFor(MEMBER).length;
    await stack.action("kassa_disconnect", value, { userId: MEMBER, teamId: team, onHome: true });
    await expect.poll(() => publishedFor(MEMBER).length).toBe(memberBefore + 1);
    expect(message((await stack.ask("status", { teamId: team })).reply.body).text).toContain("is connected");

    const adminBefore = publishedFor(ADMIN).length;
    await stack.action("kassa_disconnect", value, { userId: ADMIN, teamId: team, onHome: true });
    await expect.poll(() => publishedFor(ADMIN).length).toBe(adminBefore + 1);
    const home = JSON.stringify(viewOf(publishedFor(ADMIN).at(-1)?.body ?? {}));
    expect(home).toContain("kassa_open_connect");
    expect(home).not.toContain("kassa_disconnect");
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { teamId: team });
    expect(JSON.stringify(reply.body)).toContain("/invoice connect");
  });

  it("App Home's Update button opens the same modal", async () => {
    const before = stack.slack.callsOf("views.open").length;
    const ack = await stack.action("kassa_open_connect", "open", { userId: ADMIN });
    expect(ack.status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(before + 1);
    expect(viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {}).private_metadata).toBe(
      JSON.stringify({ from: "home", t: SANDBOX_TEAM.id }),
    );
  });

  it("forgets a workspace's credentials, settings and cache on app_uninstalled", async () => {
    const team = "T0LEAVING";
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
      SANDBOX_SECRET,
    );
    await stack.ask("", { command: "/paymethods", teamId: team });
    const result = await stack.event({ type: "app_uninstalled" }, { teamId: team });
    expect(result.status).toBe(200);
    await expect
      .poll(async () => (await stack.cli(["credentials", "list"])).stdout.includes(team))
      .toBe(false);
    // The method list is gone from the cache too: reconnecting reads the service again.
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
      SANDBOX_SECRET,
    );
    const before = stack.fake.requests.length;
    await stack.ask("", { command: "/paymethods", teamId: team });
    expect(stack.fake.requests.length).toBe(before + 1);
  });

  it("forgets on tokens_revoked for the bot token, not for user tokens only", async () => {
    const team = "T0REVOKED";
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
      SANDBOX_SECRET,
    );
    await stack.event({ type: "tokens_revoked", tokens: { oauth: ["U0SOMEONE"] } }, { teamId: team });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await stack.cli(["credentials", "list"])).stdout).toContain(team);
    await stack.event({ type: "tokens_revoked", tokens: { bot: ["U0KASSABOT"] } }, { teamId: team });
    await expect
      .poll(async () => (await stack.cli(["credentials", "list"])).stdout.includes(team))
      .toBe(false);
  });
});
