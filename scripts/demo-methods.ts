/**
 * The demo's payment methods: an admin turns the methods watch on with its form, the register's last
 * hour goes bad for Bitcoin (9 of 14 invoices failed, after 28 healthy days), the watch posts one
 * alert, the admin presses Switch off at the service and confirms, Kassa sends one edit and shows
 * what the service now shows, and `/paymethods` says who switched it.
 */
import { healthyHistory, MIN, methodInvoice } from "../sandbox/method-history.js";
import type { Stack } from "../sandbox/stack.js";

type Show = (title: string, shown: string, reply: Record<string, unknown>) => void;

const ALERTS = "C0METHODS";
const HOUR = 60 * MIN;

type Called = { body: Record<string, unknown> };
const parsed = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);
/** A modal Kassa asked Slack to open or update, shown as a message (its blocks). */
const asMessage = (call: Called | undefined, title: string) => {
  const view = parsed(call?.body.view) as { blocks?: unknown } | undefined;
  return { response_type: "ephemeral", text: title, blocks: view?.blocks ?? [] };
};

export async function showMethods(stack: Stack, admin: string, show: Show): Promise<void> {
  const now = Date.now();
  const start = Math.floor(now / HOUR) * HOUR;
  for (const invoice of healthyHistory(start)) stack.fake.invoices.set(invoice.id, invoice);
  // The last 40 minutes: 9 of Bitcoin's 14 invoices fail.
  for (let i = 0; i < 14; i += 1) {
    const invoice = methodInvoice(
      "BITCOIN",
      i % 3 === 2 || i === 13 ? "payed" : "failed",
      now - (40 - i * 3) * MIN,
    );
    stack.fake.invoices.set(invoice.id, invoice);
  }
  const opened = stack.slack.callsOf("views.open").length;
  await stack.command("watch", { command: "/paymethods", userId: admin, channelId: ALERTS });
  const [form] = (await stack.slack.waitForCalls("views.open", { count: opened + 1 })).slice(opened);
  show(
    "An admin opens the payment methods watch (defaults shown)",
    "/paymethods watch",
    asMessage(form, "watch"),
  );
  await stack.submitView({
    view: parsed(form?.body.view) as object,
    // The defaults as the form shows them; the channel and whom to mention chosen.
    values: {
      mwatch_channel: { conversation: ALERTS },
      mwatch_mention: { users: [admin] },
      mwatch_share: { value: "40" },
      mwatch_min: { value: "8" },
      mwatch_window: { value: "60" },
      mwatch_silence: { selected: "usual" },
      mwatch_factor: { value: "4" },
      mwatch_floor: { value: "2" },
      mwatch_hours: { value: "24" },
    },
    userId: admin,
  });
  await stack.pass("methodWatch");
  const alert = [...stack.slack.messages.values()]
    .filter((m) => m.channel === ALERTS && !m.threadTs && JSON.stringify(m.blocks).includes("failing"))
    .at(-1);
  if (!alert) {
    console.error([...stack.slack.messages.values()].filter((m) => m.channel === ALERTS).map((m) => m.text));
    console.error(stack.logs.filter((l) => /method|watch/i.test(l)).slice(-10));
    throw new Error("the watch posted no alert");
  }
  show("Bitcoin fails: the watch posts one alert in #methods", "(the watch's check)", {
    response_type: "in_channel",
    text: alert.text,
    blocks: alert.blocks,
  });
  const before = stack.slack.callsOf("views.update").length;
  await stack.action("method_alert_switch_off", JSON.stringify({ r: "main", c: "BITCOIN" }), {
    userId: admin,
    channelId: ALERTS,
  });
  const [confirm] = (await stack.slack.waitForCalls("views.update", { count: before + 1 })).slice(before);
  show(
    "The admin presses Switch off at the service: Kassa reads the method and asks to confirm",
    "(pressed)",
    asMessage(confirm, "confirm"),
  );
  const viewId = String(confirm?.body.view_id ?? "");
  const confirmView = parsed(confirm?.body.view) as object;
  await stack.submitView({ view: confirmView, values: {}, userId: admin, viewId });
  const done = () => stack.slack.callsOf("views.update").filter((call) => call.body.view_id === viewId);
  const ended = await waitFor(() => done().find((call) => JSON.stringify(call.body).includes("now shows")));
  show(
    `Confirmed: one edit sent (edits at the service: ${stack.fake.methodEdits.length}), then what the service shows`,
    "(Switch off pressed in the modal)",
    asMessage(ended, "switched"),
  );
  const { reply } = await stack.ask("bitcoin", { command: "/paymethods", userId: admin, channelId: ALERTS });
  show("The method list says who switched it, and when", "/paymethods bitcoin", reply.body);
}

async function waitFor<T>(find: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error("the switch did not end in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
