/**
 * What is still unpaid (issue 51), through the real app against the sandbox on API v3, on a clock the
 * test moves: links made with the create form, one paid at the service, one past its page's close;
 * `/invoice unpaid` lists the others grouped by customer with totals per currency, time left or how
 * long ago each expired, a Re-issue on each; a customer asked for narrows it; Russian too; and the
 * weekly digest carries the line on how many are open and for how much.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Stack } from "../../sandbox/stack.js";
import { linkButton } from "../../src/blocks/button-values.js";
import { LINK_ACTIONS } from "../../src/blocks/ids.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { clockReading } from "../support/manual-clock.js";
import { viewOf } from "../support/views.js";

const ADMIN = "U0ADMIN";
const CHANNEL = "C0UNPAID";
const MINUTE = 60_000;

/** The next Monday, 05:00 UTC (08:00 in Moscow): a weekly digest at 09:30 Moscow is due 90 minutes on. */
function nextMonday(): Date {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7 || 7));
  return new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 5, 0, 0));
}

type Section = { type: string; text?: { text: string }; accessory?: { action_id: string; value: string } };

describe("what is still unpaid (v3)", () => {
  let stack: Stack;
  let clock = nextMonday();
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stack = await Stack.start({ apiVersion: "v3", storeMemoMs: 0, clock: clockReading(() => clock) });
    stack.slack.users[ADMIN] = { is_admin: true, tz: "Europe/Moscow" };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** One link made with the form; its invoice id. */
  async function made(name: string, amount: string, currency: string, lifetime: number, customer?: string) {
    const views = stack.slack.callsOf("views.open").length;
    const posts = stack.slack.callsOf("chat.postMessage").length;
    await stack.command("new", { userId: ADMIN, channelId: CHANNEL });
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(views + 1);
    const view = viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
    await stack.submitView({
      view,
      userId: ADMIN,
      viewId: `V0UNPAID${name.toUpperCase()}`,
      values: {
        [CREATE_FIELDS.amount]: { value: amount },
        [CREATE_FIELDS.currency]: { selected: currency },
        [CREATE_FIELDS.lifetime]: { value: String(lifetime) },
        [CREATE_FIELDS.description]: { value: `Order ${name}` },
        ...(customer ? { [CREATE_FIELDS.customer]: { value: customer } } : {}),
      },
    });
    await expect.poll(() => stack.slack.callsOf("chat.postMessage").length).toBe(posts + 1);
    const id = stack.fake.created.at(-1);
    if (!id) throw new Error("no invoice was made");
    ids[name] = id;
    return id;
  }

  const sections = (body: Record<string, unknown>) => (body.blocks ?? []) as Section[];
  const texts = (body: Record<string, unknown>) => sections(body).map((block) => block.text?.text ?? "");

  it("`/invoice unpaid` lists the open and expired unpaid links by customer, with totals, time left or ago, and Re-issue", async () => {
    const made0 = clock.getTime();
    await made("short", "700", "RUB", 30, "Globex");
    await made("acme1", "1500.50", "RUB", 240, "Acme Ltd");
    await made("acme2", "20", "USD", 240, "Acme Ltd");
    await made("paid", "999", "RUB", 240, "Acme Ltd");
    await made("nobody", "42", "RUB", 240);
    stack.fake.pay(ids.paid ?? "");
    // An hour on: the 30-minute link's page closed half an hour ago.
    clock = new Date(made0 + 60 * MINUTE);
    const { reply } = await stack.ask("unpaid", { userId: ADMIN, channelId: CHANNEL });
    const shown = texts(reply.body);
    const at = (part: string) => shown.findIndex((text) => text.includes(part));
    expect(shown[0]).toBe("Unpaid payment links · last 30 days");
    // Acme's heading, its two unpaid links (the paid one left out), then Globex, then no customer.
    expect(shown[at("*Acme Ltd*")]).toBe("*Acme Ltd* · 2 links · 1,500.50 RUB + 20.00 USD");
    expect(at(ids.acme1 ?? "?")).toBe(at("*Acme Ltd*") + 1);
    expect(shown[at(ids.acme1 ?? "?")]).toContain("Open, 3 h left");
    expect(at(ids.acme2 ?? "?")).toBe(at("*Acme Ltd*") + 2);
    expect(at(ids.paid ?? "?")).toBe(-1);
    expect(shown[at("*Globex*")]).toBe("*Globex* · 1 link · 700.00 RUB");
    expect(shown[at(ids.short ?? "?")]).toContain("Expired 30 min ago");
    expect(at("*No customer*")).toBeGreaterThan(at("*Globex*"));
    expect(shown[at("*No customer*")]).toBe("*No customer* · 1 link · 42.00 RUB");
    const reissue = sections(reply.body).find((block) =>
      block.text?.text.includes(ids.acme1 ?? "?"),
    )?.accessory;
    expect(reissue?.action_id).toBe(LINK_ACTIONS.reissue);
    expect(linkButton.schema.parse(JSON.parse(reissue?.value ?? "{}"))).toMatchObject({ t: "T0SANDBOX" });
    expect(reply.body.response_type).toBe("ephemeral");
  });

  it("a customer asked for narrows the list; in Russian with `неоплаченные`", async () => {
    const acme = await stack.ask("unpaid 7d acme", { userId: ADMIN, channelId: CHANNEL });
    const shown = texts(acme.reply.body);
    expect(shown.some((text) => text.startsWith("*Acme Ltd*"))).toBe(true);
    expect(shown.some((text) => text.includes("Globex") || text.includes("No customer"))).toBe(false);
    await stack.ask("language ru", { userId: ADMIN, channelId: CHANNEL });
    try {
      const ru = await stack.ask("неоплаченные", { userId: ADMIN, channelId: CHANNEL });
      // Russian amounts group their thousands with a no-break space.
      const words = texts(ru.reply.body).map((text) => text.replace(/\u00a0/g, " "));
      expect(words[0]).toBe("Неоплаченные ссылки на оплату · последние 30 дней");
      expect(words).toContain("*Acme Ltd* · 2 ссылки · 1 500,50 RUB + 20,00 USD");
      expect(words).toContain("*Без клиента* · 1 ссылка · 42,00 RUB");
    } finally {
      await stack.ask("language en", { userId: ADMIN, channelId: CHANNEL });
    }
  });

  it("the weekly digest says how many links are open and for how much, and how many expired", async () => {
    // The channel's note comes first, then the admin's reply once the digest is kept.
    const set = await stack.command("digest 09:30 weekly", { userId: ADMIN, channelId: CHANNEL });
    await stack.slack.waitForReply(set.responseId, { count: 2 });
    const digests = () =>
      [...stack.slack.messages.values()].filter(
        (message) =>
          message.channel === CHANNEL && JSON.stringify(message.blocks).includes("Unpaid payment links:"),
      );
    await stack.pass("digests");
    expect(digests()).toHaveLength(0);
    // 09:31 in Moscow: the week's report is due.
    clock = new Date(nextMonday().getTime() + 91 * MINUTE);
    await stack.pass("digests");
    await stack.slack.waitForMessages(() => digests().length > 0, 10_000);
    expect(JSON.stringify(digests()[0]?.blocks)).toContain(
      "Unpaid payment links: 3 open for 1,542.50 RUB + 20.00 USD (1 expired). `/invoice unpaid` lists them.",
    );
  });
});
