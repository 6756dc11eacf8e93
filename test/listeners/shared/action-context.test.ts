import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { actionContext } from "../../../src/listeners/shared/action-context.js";

const ACTIONS = join(import.meta.dirname, "../../../src/listeners/actions");

type Args = Parameters<typeof actionContext>[1];

function args(body: Record<string, unknown>): Args {
  return { body, action: { action_id: "kassa_refresh" }, client: {} } as unknown as Args;
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
