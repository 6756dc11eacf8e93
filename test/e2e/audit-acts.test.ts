/**
 * Acts done through Kassa reach the audit trail, through the real app: an admin's language change
 * (before and after), a channel's register, a feed, a member's refused disconnect, a reconnect with
 * its key only as a fingerprint; the chain then verifies, in the store and with the CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_LOGIN, SANDBOX_SECRET } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { type AuditEntry, openAuditTrail } from "../../src/audit/index.js";
import { openStore } from "../../src/store/keyv.js";

const ADMIN = "U0ADMIN";
const MEMBER = "U0MEMBER";

describe("acts recorded in the audit trail", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const entries = async (): Promise<AuditEntry[]> => {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      const page = await trail.list(SANDBOX_TEAM.id, { limit: 100 });
      return page.entries.flatMap((listed) => (listed.entry ? [listed.entry] : [])).reverse();
    } finally {
      await store.close();
    }
  };

  it("records each act once, by Slack id, with what changed, and no secret", async () => {
    await stack.ask("language ru", { userId: ADMIN });
    await stack.ask("language en", { userId: ADMIN });
    await stack.ask("disconnect", { userId: MEMBER });
    await stack.ask("subscribe", { userId: ADMIN, channelId: "C0PAYMENTS" });
    await stack.ask("help", { userId: MEMBER });
    const submitted = await stack.submitView({
      view: {
        callback_id: "kassa_connect",
        private_metadata: JSON.stringify({ from: "command", t: SANDBOX_TEAM.id }),
      },
      values: {
        login: { value: SANDBOX_LOGIN },
        secret: { value: SANDBOX_SECRET },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
      },
      userId: ADMIN,
    });
    expect(submitted.status).toBe(200);
    const acts = await entries();
    expect(acts.map((entry) => [entry.action, entry.actor, entry.outcome])).toEqual([
      ["settings.language_changed", ADMIN, "done"],
      ["settings.language_changed", ADMIN, "done"],
      ["act.refused", MEMBER, "refused"],
      ["feed.subscribed", ADMIN, "done"],
      ["register.edited", ADMIN, "done"],
    ]);
    expect(acts[0]).toMatchObject({
      before: { language: "en" },
      after: { language: "ru" },
      team: SANDBOX_TEAM.id,
    });
    expect(acts[2]).toMatchObject({ object: "/invoice disconnect", reason: "not an admin" });
    // A feed is named by its channel, so the trail says which one was made or stopped.
    expect(acts[3]?.object).toBe("feed C0PAYMENTS");
    const edited = acts[4];
    expect(edited?.object).toBe("register main");
    expect(JSON.stringify(edited)).not.toContain(SANDBOX_SECRET);
    // The form's settings too, before and after (the language the admin set back to English).
    expect(edited?.after).toMatchObject({ settings: { replyVisibility: "channel", language: "en" } });
    expect(edited?.before).toMatchObject({ login: SANDBOX_LOGIN, settings: { language: "en" } });
    expect(String((edited?.after as { secret?: string } | undefined)?.secret)).toMatch(
      /^sha256:[0-9a-f]{12}$/,
    );
  });

  it("an uninstall forgets the workspace but keeps its trail, which records the uninstall", async () => {
    const team = "T0LEAVES";
    await stack.cli(
      ["credentials", "set", "--team", team, "--login", SANDBOX_LOGIN, "--secret", "-"],
      SANDBOX_SECRET,
    );
    await stack.ask("language ru", { userId: ADMIN, teamId: team });
    const result = await stack.event({ type: "app_uninstalled" }, { teamId: team });
    expect(result.status).toBe(200);
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      const trail = await openAuditTrail(store, { retentionDays: 1825 });
      await expect
        .poll(async () =>
          (await trail.list(team, { limit: 10 })).entries.map((listed) => listed.entry?.action),
        )
        .toEqual(["app.uninstalled", "settings.language_changed"]);
      expect((await trail.verify(team)).ok).toBe(true);
    } finally {
      await store.close();
    }
  });

  it("the chain verifies, with the CLI too", async () => {
    const verified = await stack.cli(["audit", "verify", "--team", SANDBOX_TEAM.id]);
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain("5 entries");
  });
});
