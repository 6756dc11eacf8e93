import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { webApi } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import { actionContext } from "../../../src/listeners/contexts/action-context.js";

const ACTIONS = join(import.meta.dirname, "../../../src/listeners/actions");

type Args = Parameters<typeof actionContext>[1];

/** A press of Refresh as Slack sends it, with the parts of the body each case sets. */
function args(given: {
  team: { id: string } | null;
  user: { id: string; team_id?: string };
  enterprise?: { id: string };
  container: Args["body"]["container"];
}): Args {
  const action = {
    type: "button" as const,
    action_id: "kassa_refresh",
    block_id: "actions",
    action_ts: "1764000000.000100",
    text: { type: "plain_text" as const, text: "Refresh" },
  };
  const body: Args["body"] = {
    type: "block_actions",
    actions: [action],
    team: given.team && { domain: "team", ...given.team },
    user: { username: given.user.id.toLowerCase(), ...given.user },
    ...(given.enterprise ? { enterprise: { name: "enterprise", ...given.enterprise } } : {}),
    token: "verification-token",
    response_url: "https://hooks.slack.invalid/actions/1",
    trigger_id: "trigger-1",
    api_app_id: "A1",
    container: given.container,
  };
  return {
    body,
    action,
    client: new webApi.WebClient(undefined, { slackApiUrl: "http://127.0.0.1:9/api/" }),
  };
}

const deps = {} as Parameters<typeof actionContext>[0];

describe("actionContext", () => {
  it("reads the presser, their workspace (the user's own when Slack sends none) and where they pressed", () => {
    const press = actionContext(
      deps,
      args({
        team: null,
        user: { id: "U1", team_id: "T2" },
        enterprise: { id: "E1" },
        container: { type: "message", is_ephemeral: true },
      }),
    );
    expect(press).toMatchObject({
      teamId: "T2",
      userId: "U1",
      who: { userId: "U1", teamId: "T2", enterpriseId: "E1" },
      fromHome: false,
      isPrivate: true,
    });
    expect(press.context).toMatchObject({ kind: "action", name: "kassa_refresh", team: "T2", user: "U1" });
    expect(typeof press.context.lang).toBe("function");
    expect(typeof press.context.canManage).toBe("function");
  });

  it("answers in the workspace's language, without a Connect offer for the buttons that ask so", () => {
    const press = actionContext(
      deps,
      args({ team: { id: "T1" }, user: { id: "U1" }, container: { type: "view" } }),
      { offersConnect: false },
    );
    expect(press.fromHome).toBe(true);
    expect(typeof press.context.lang).toBe("function");
    expect(press.context.canManage).toBeUndefined();
  });

  it("opens every button handler: no handler reads its workspace, presser or language by itself", () => {
    const handlers = readdirSync(ACTIONS).filter((name) => name.endsWith(".ts") && name !== "links.ts");
    const own = handlers.filter((name) => {
      const text = readFileSync(join(ACTIONS, name), "utf8");
      return !text.includes("actionContext(") || /body\.team|body\.user|teamIdOf|langFor\(/.test(text);
    });
    expect(own).toEqual([]);
  });
});
