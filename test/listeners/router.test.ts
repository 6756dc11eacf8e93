import { App, type Receiver, type ReceiverEvent } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CommandArgs, ListenerRouter, type ViewArgs } from "../../src/listeners/router.js";
import { type ListenerWorld, listenerWorld } from "../support/listener-world.js";

/** A receiver that never listens: the test hands Bolt its requests through processEvent. */
const NO_RECEIVER: Receiver = { init: () => {}, start: async () => undefined, stop: async () => undefined };

/** A real Bolt App with the router mounted on it; `deliver` runs one request through Bolt's matching. */
function mounted(router: ListenerRouter) {
  const app = new App({
    receiver: NO_RECEIVER,
    authorize: async () => ({ botToken: "xoxb-router-test", botId: "B0KASSA" }),
    logLevel: undefined,
  });
  router.mount(app);
  /** Runs one request through Bolt; true when some listener acknowledged it. */
  const deliver = async (body: ReceiverEvent["body"]): Promise<boolean> => {
    let acked = false;
    await app.processEvent({
      body,
      ack: async () => {
        acked = true;
      },
    });
    return acked;
  };
  return { deliver };
}

const TEAM = { team_id: "T0KASSA", api_app_id: "A0KASSA", token: "verification-token" };

function command(name: string, text: string): ReceiverEvent["body"] {
  return {
    ...TEAM,
    command: name,
    text,
    user_id: "U0ADMIN",
    channel_id: "C0FINANCE",
    response_url: "http://127.0.0.1:9/unused",
    trigger_id: "trigger",
  };
}

function button(actionId: string): ReceiverEvent["body"] {
  return {
    type: "block_actions",
    api_app_id: TEAM.api_app_id,
    token: TEAM.token,
    team: { id: TEAM.team_id },
    user: { id: "U0ADMIN", team_id: TEAM.team_id },
    actions: [{ type: "button", action_id: actionId, block_id: "b", action_ts: "1.2", value: "v" }],
    container: { type: "message" },
  };
}

function event(payload: Record<string, unknown>): ReceiverEvent["body"] {
  return { ...TEAM, type: "event_callback", event_id: `Ev${payload.type}`, event_time: 1, event: payload };
}

function submission(callbackId: string): ReceiverEvent["body"] {
  return {
    type: "view_submission",
    api_app_id: TEAM.api_app_id,
    token: TEAM.token,
    team: { id: TEAM.team_id },
    user: { id: "U0ADMIN", team_id: TEAM.team_id },
    view: { id: "V1", callback_id: callbackId, type: "modal", state: { values: {} }, private_metadata: "" },
  };
}

describe("ListenerRouter on a real Bolt App", () => {
  it("hands each action to its own handler (the first that matches), and nothing else", async () => {
    const router = new ListenerRouter();
    const calls: string[] = [];
    router.action("invoice_share", async ({ action, ack }) => {
      await ack();
      calls.push(`exact ${action.action_id}`);
    });
    router.action(/^invoice_/, async ({ action, ack }) => {
      await ack();
      calls.push(`pattern ${action.action_id}`);
    });
    router.action("kassa.connect+open", async ({ ack }) => {
      await ack();
      calls.push("connect");
    });
    const { deliver } = mounted(router);
    for (const id of [
      "invoice_share",
      "invoice_refresh",
      "kassa.connect+open",
      "kassaXconnect+open",
      "xinvoice_",
    ])
      await deliver(button(id));
    expect(calls).toEqual(["exact invoice_share", "pattern invoice_refresh", "connect"]);
  });

  it("keeps a RegExp action id's flags, as Bolt's String#match would (groups included)", async () => {
    const router = new ListenerRouter();
    const calls: string[] = [];
    router.action("open_payment_page", async ({ ack }) => {
      await ack();
      calls.push("exact");
    });
    router.action(/^INVOICE_(\w+)$/i, async ({ action, context, ack }) => {
      await ack();
      calls.push(`pattern ${action.action_id} ${context.actionIdMatches?.[1]}`);
    });
    const { deliver } = mounted(router);
    for (const id of ["Invoice_share", "open_payment_page", "OPEN_PAYMENT_PAGE"]) await deliver(button(id));
    expect(calls).toEqual(["pattern Invoice_share share", "exact"]);
  });

  it("routes slash commands through one listener that matches exactly their names", async () => {
    const router = new ListenerRouter();
    const calls: string[] = [];
    router.command("/invoice", async ({ command, ack }) => {
      await ack();
      calls.push(`invoice ${command.text}`);
    });
    router.command("/paymethods", async ({ command, ack }) => {
      await ack();
      calls.push(`paymethods ${command.text}`);
    });
    expect(() => router.command("/invoice", async () => {})).toThrow("command /invoice is routed twice");
    const { deliver } = mounted(router);
    for (const name of ["/paymethods", "/invoices", "/invoice2", "/invoice"])
      await deliver(command(name, "42"));
    expect(calls).toEqual(["paymethods 42", "invoice 42"]);
  });

  it("hands each event to the handler for its type, once per event_id", async () => {
    const seen = new Set<string>();
    const router = new ListenerRouter(async (eventId) => !seen.has(eventId) && Boolean(seen.add(eventId)));
    const calls: string[] = [];
    router.event("app_uninstalled", async ({ event }) => void calls.push(event.type));
    router.event("app_home_opened", async ({ event }) => void calls.push(`${event.type} ${event.tab}`));
    expect(() => router.event("app_uninstalled", async () => {})).toThrow(
      "event app_uninstalled is routed twice",
    );
    const { deliver } = mounted(router);
    const home = { type: "app_home_opened", user: "U0ADMIN", channel: "D1", tab: "home", event_ts: "1.1" };
    await deliver(event(home));
    await deliver(event(home));
    await deliver(event({ type: "app_uninstalled", event_ts: "1.2" }));
    await deliver(event({ type: "tokens_revoked", tokens: {}, event_ts: "1.3" }));
    expect(calls).toEqual(["app_home_opened home", "app_uninstalled"]);
  });

  describe("a route table", () => {
    let world: ListenerWorld;
    beforeAll(async () => {
      world = await listenerWorld();
    });
    afterAll(async () => world.close());

    it("builds each handler once with the deps; views sit behind one listener", async () => {
      const router = new ListenerRouter();
      const calls: string[] = [];
      let built = 0;
      router.routeAll(
        [
          {
            command: "/invoice",
            handler: (deps) => {
              built += 1;
              return async ({ command, ack }: CommandArgs) => {
                await ack();
                calls.push(`${command.text} ${deps.timeoutMs}`);
              };
            },
          },
          {
            view: "connect",
            handler:
              () =>
              async ({ view, ack }: ViewArgs) => {
                await ack();
                calls.push(`view ${view.callback_id}`);
              },
          },
          {
            event: "app_home_opened",
            handler:
              () =>
              async ({ event }) =>
                void calls.push(`${event.tab}`),
          },
        ],
        world.deps,
      );
      expect(() => router.view("connect", async () => {})).toThrow("view connect is routed twice");
      const { deliver } = mounted(router);
      await deliver(command("/invoice", "42"));
      await deliver(command("/invoice", "43"));
      await deliver(submission("connect"));
      await deliver(submission("connect_2"));
      await deliver(
        event({ type: "app_home_opened", user: "U0ADMIN", channel: "D1", tab: "home", event_ts: "1" }),
      );
      expect(calls).toEqual([
        `42 ${world.deps.timeoutMs}`,
        `43 ${world.deps.timeoutMs}`,
        "view connect",
        "home",
      ]);
      expect(built).toBe(1);
    });
  });

  it("registers nothing for a kind with no routes: such a request reaches no listener", async () => {
    const router = new ListenerRouter();
    router.event("app_uninstalled", async () => {});
    const { deliver } = mounted(router);
    expect(await deliver(command("/invoice", "42"))).toBe(false);
    const routed = new ListenerRouter();
    routed.command("/invoice", async ({ ack }) => ack());
    expect(await mounted(routed).deliver(command("/invoice", "42"))).toBe(true);
  });
});
