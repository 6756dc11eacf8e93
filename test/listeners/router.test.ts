import type { App } from "@slack/bolt";
import { describe, expect, it } from "vitest";
import type { ListenerDeps } from "../../src/listeners/deps.js";
import { type CommandArgs, ListenerRouter, type ViewArgs } from "../../src/listeners/router.js";

type Registered = { constraint: unknown; listener: (args: unknown) => Promise<void> };

/** Records what the router registers on Bolt's App (only the two methods it uses). */
function recordingApp() {
  const commands: Registered[] = [];
  const actions: Registered[] = [];
  const events: Registered[] = [];
  const views: Registered[] = [];
  const app = {
    view: (constraint: unknown, listener: Registered["listener"]) => views.push({ constraint, listener }),
    command: (constraint: unknown, listener: Registered["listener"]) =>
      commands.push({ constraint, listener }),
    action: (constraint: unknown, listener: Registered["listener"]) => actions.push({ constraint, listener }),
    event: (constraint: unknown, listener: Registered["listener"]) => events.push({ constraint, listener }),
  };
  return { app: app as unknown as App, commands, actions, events, views };
}

describe("ListenerRouter", () => {
  it("registers one Bolt listener per kind, matching exactly the routed ids and names", () => {
    const router = new ListenerRouter();
    router.action("open_payment_page", async () => {});
    router.action(/^(invoice_refresh|invoice_share)$/, async () => {});
    router.action("kassa.connect+open", async () => {});
    router.event("app_home_opened", async () => {});
    router.event("tokens_revoked", async () => {});
    const { app, actions, events } = recordingApp();
    router.mount(app);

    expect(actions).toHaveLength(1);
    expect(events).toHaveLength(1);
    const actionPattern = actions[0]?.constraint as RegExp;
    for (const id of ["open_payment_page", "invoice_refresh", "invoice_share", "kassa.connect+open"])
      expect(actionPattern.test(id), id).toBe(true);
    for (const id of [
      "open_payment_page_2",
      "xopen_payment_page",
      "invoice_delete",
      "kassaXconnect+open",
      "",
    ])
      expect(actionPattern.test(id), id).toBe(false);
    const eventPattern = events[0]?.constraint as RegExp;
    expect(eventPattern.test("app_home_opened")).toBe(true);
    expect(eventPattern.test("tokens_revoked")).toBe(true);
    expect(eventPattern.test("app_uninstalled")).toBe(false);
    expect(eventPattern.test("app_home_opened_x")).toBe(false);
  });

  it("hands each action to its own handler (the first that matches), with Bolt's arguments", async () => {
    const router = new ListenerRouter();
    const calls: string[] = [];
    router.action("invoice_share", async ({ action }) => void calls.push(`exact ${action.action_id}`));
    router.action(/^invoice_/, async ({ action }) => void calls.push(`pattern ${action.action_id}`));
    const { app, actions } = recordingApp();
    router.mount(app);
    const listener = actions[0]?.listener;
    await listener?.({ action: { action_id: "invoice_share" } });
    await listener?.({ action: { action_id: "invoice_refresh" } });
    expect(calls).toEqual(["exact invoice_share", "pattern invoice_refresh"]);
  });

  it("routes slash commands through one listener that matches exactly their names", async () => {
    const router = new ListenerRouter();
    const calls: string[] = [];
    router.command("/invoice", async ({ command }) => void calls.push(`invoice ${command.text}`));
    router.command("/paymethods", async ({ command }) => void calls.push(`paymethods ${command.text}`));
    expect(() => router.command("/invoice", async () => {})).toThrow("command /invoice is routed twice");
    const { app, commands } = recordingApp();
    router.mount(app);
    expect(commands).toHaveLength(1);
    const pattern = commands[0]?.constraint as RegExp;
    expect(["/invoice", "/paymethods"].every((name) => pattern.test(name))).toBe(true);
    expect(["/invoices", "/invoice2", "invoice", "/pay"].some((name) => pattern.test(name))).toBe(false);
    await commands[0]?.listener({ command: { command: "/paymethods", text: "btc" } });
    await commands[0]?.listener({ command: { command: "/invoice", text: "42" } });
    expect(calls).toEqual(["paymethods btc", "invoice 42"]);
  });

  it("hands each event to the handler for its type", async () => {
    const router = new ListenerRouter();
    const calls: string[] = [];
    router.event("app_uninstalled", async ({ event }) => void calls.push(event.type));
    router.event("app_home_opened", async ({ event }) => void calls.push(`${event.type} ${event.tab}`));
    const { app, events } = recordingApp();
    router.mount(app);
    await events[0]?.listener({ event: { type: "app_home_opened", tab: "home" } });
    await events[0]?.listener({ event: { type: "app_uninstalled" } });
    expect(calls).toEqual(["app_home_opened home", "app_uninstalled"]);
  });

  it("refuses an event routed twice, and registers nothing for a kind with no routes", () => {
    const router = new ListenerRouter();
    router.event("app_uninstalled", async () => {});
    expect(() => router.event("app_uninstalled", async () => {})).toThrow(
      "event app_uninstalled is routed twice",
    );
    const { app, commands, actions, events } = recordingApp();
    router.mount(app);
    expect(commands).toHaveLength(0);
    expect(actions).toHaveLength(0);
    expect(events).toHaveLength(1);
  });

  it("keeps a RegExp action id's flags, as Bolt's String#match would (groups included)", async () => {
    const router = new ListenerRouter();
    const calls: string[] = [];
    router.action("open_payment_page", async () => void calls.push("exact"));
    router.action(/^INVOICE_(\w+)$/i, async ({ action }) => void calls.push(`pattern ${action.action_id}`));
    const { app, actions } = recordingApp();
    router.mount(app);
    const pattern = actions[0]?.constraint as RegExp;
    expect("invoice_refresh".match(pattern)?.[1]).toBe("refresh");
    expect("open_payment_page".match(pattern)?.[0]).toBe("open_payment_page");
    expect("OPEN_PAYMENT_PAGE".match(pattern)).toBeNull();
    expect(pattern.test("Invoice_share")).toBe(true);
    await actions[0]?.listener({ action: { action_id: "Invoice_share" } });
    expect(calls).toEqual(["pattern Invoice_share"]);
  });

  it("mounts a route table: each handler built once with the deps, views behind one listener", async () => {
    const router = new ListenerRouter();
    const calls: string[] = [];
    const deps = { timeoutMs: 7 } as unknown as ListenerDeps;
    router.routeAll(
      [
        {
          command: "/invoice",
          handler:
            (d) =>
            async ({ command }: CommandArgs) =>
              void calls.push(`${command.text} ${d.timeoutMs}`),
        },
        {
          view: "connect",
          handler:
            () =>
            async ({ view }: ViewArgs) =>
              void calls.push(`view ${view.callback_id}`),
        },
        {
          event: "app_home_opened",
          handler:
            () =>
            async ({ event }) =>
              void calls.push(`${event.tab}`),
        },
      ],
      deps,
    );
    expect(() => router.view("connect", async () => {})).toThrow("view connect is routed twice");
    const { app, commands, views, events } = recordingApp();
    router.mount(app);
    expect(views).toHaveLength(1);
    const viewPattern = views[0]?.constraint as RegExp;
    expect(viewPattern.test("connect")).toBe(true);
    expect(viewPattern.test("connect_2")).toBe(false);
    await commands[0]?.listener({ command: { command: "/invoice", text: "42" } });
    await views[0]?.listener({ view: { callback_id: "connect" } });
    await events[0]?.listener({ event: { type: "app_home_opened", tab: "home" }, body: {} });
    expect(calls).toEqual(["42 7", "view connect", "home"]);
  });
});
