/**
 * A workspace whose language is Russian, through the real app: the invoice card, its live line, the
 * redraw and thread note after the payment; every command's reply, the buttons' answers, the forms
 * (creating an invoice, connecting the cash register) with their errors, App Home and unfurls; usage
 * and failure replies. No English word is left besides ids, codes, currency codes, URLs and names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAULT_IDS, moscowTime } from "../../sandbox/fake-payments.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { openStore } from "../../src/store/keyv.js";
import { settingsStoreFor } from "../../src/store/settings.js";
import { englishWords } from "../support/english-words.js";

const hours = (h: number) => moscowTime(new Date(Date.now() + h * 3_600_000));

/** The sandbox stack with its workspace set to Russian, as the connect form and `/invoice language` do. */
async function startRussian(options: Parameters<typeof Stack.start>[0]): Promise<Stack> {
  const stack = await Stack.start(options);
  const store = await openStore(stack.env.STORE_URL ?? "");
  try {
    await settingsStoreFor(store).update(SANDBOX_TEAM.id, { language: "ru" });
  } finally {
    await store.close();
  }
  return stack;
}

describe("a Russian workspace", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startRussian({ env: { WATCH_INTERVAL_MS: "100" }, storeMemoMs: 0 });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("gets its live card, the payment on it and the thread note in Russian", async () => {
    const id = "715308990_RussianCard";
    stack.fake.invoices.set(id, {
      id,
      state: "notpayed",
      currency: "RUB",
      amount: "1500.5",
      createdAt: hours(-1),
      expiredAt: hours(5),
    });
    const { reply } = await stack.ask(id, { channelId: "C0RUSSIAN" });
    const card = stack.slack.messages.get(`C0RUSSIAN:${String(reply.body.ts)}`);
    if (!card) throw new Error("no card posted");
    expect(englishWords({ text: card.text, blocks: card.blocks })).toEqual([]);
    expect(JSON.stringify(card.blocks)).toContain("1\u00a0500,50 RUB");
    expect(JSON.stringify(card.blocks)).toContain("Не оплачен");

    stack.fake.pay(id);
    await expect.poll(() => JSON.stringify(card.blocks), { timeout: 10_000 }).toContain("Оплачен");
    await expect.poll(() => stack.slack.threadOf("C0RUSSIAN", card.ts).length, { timeout: 10_000 }).toBe(1);
    const [note] = stack.slack.threadOf("C0RUSSIAN", card.ts);
    expect(note?.text).toMatch(/Счёт 715308990_RussianCard: Не оплачен → Оплачен · 1\u00a0500,50 RUB$/);
    expect(englishWords({ text: note?.text, blocks: note?.blocks ?? [] })).toEqual([]);
    // The method the payer chose is named as the service names it.
    expect(englishWords({ text: card.text, blocks: card.blocks }, ["CrystalPAY"])).toEqual([]);
  });

  it("gets /paymethods, /balance, /invoice list and summary and a Refresh in Russian", async () => {
    // The service's own method names (Bitcoin, CryptoBot, …) and unknown state codes are names.
    const methodNames = stack.fake.methods.flatMap((method) => method.name.split(/[\s()]+/));
    const names = [...methodNames, "CrystalPAY", "refunded", "subscription"];
    const paymethods = await stack.ask("", { command: "/paymethods", channelId: "C0RUSSIAN3" });
    expect(englishWords(paymethods.reply.body, names)).toEqual([]);
    stack.slack.users.U0RUADMIN = { is_admin: true };
    const balance = await stack.ask("", { command: "/balance", userId: "U0RUADMIN" });
    expect(JSON.stringify(balance.reply.body)).toContain("Баланс кассы");
    expect(englishWords(balance.reply.body, names)).toEqual([]);
    for (const text of ["list", "list paid", "summary", "summary 7d"]) {
      const { reply } = await stack.ask(text, { channelId: "C0RUSSIAN3" });
      expect(englishWords(reply.body, names), text).toEqual([]);
    }
    const { reply: card } = await stack.ask("715308958_rPwTzvsvCm", { channelId: "C0RUSSIAN4" });
    const value = JSON.stringify({ t: SANDBOX_TEAM.id, id: "715308958_rPwTzvsvCm", s: "notpayed" });
    const ack = await stack.action("invoice_refresh", value, { message: card.body });
    expect(ack.status).toBe(200);
    const refreshed = await stack.slack.waitForReply(ack.responseId);
    expect(JSON.stringify(refreshed.body)).toContain("Обновлено");
    expect(englishWords(refreshed.body, [...names, "Order"])).toEqual([]);
  });

  it("gets its buttons' answers in Russian: Stop updating, list and method pages, Share, subscribe", async () => {
    const names = [
      ...stack.fake.methods.flatMap((method) => method.name.split(/[\s()]+/)),
      "CrystalPAY",
      "refunded",
      "subscription",
      "Order",
    ];
    // Every button of a reply, with its value, to press it as Slack would.
    const buttonsOf = (body: Record<string, unknown>) =>
      ((body.blocks as Array<{ elements?: Array<{ action_id?: string; value?: string }> }>) ?? [])
        .flatMap((block) => block.elements ?? [])
        .filter((element) => element.action_id && element.value);
    const press = async (body: Record<string, unknown>, actionId: string, ephemeral = false) => {
      const button = buttonsOf(body).find((element) => element.action_id === actionId);
      if (!button?.value) throw new Error(`no ${actionId} button`);
      // A card Kassa posted itself is pressed where it is (Stop updating checks who asked for that card).
      const where =
        typeof body.ts === "string" && typeof body.channel === "string"
          ? { channelId: body.channel, messageTs: body.ts }
          : {};
      const ack = await stack.action(actionId, button.value, { message: body, ephemeral, ...where });
      expect(ack.status).toBe(200);
      return (await stack.slack.waitForReply(ack.responseId)).body;
    };
    const { reply: card } = await stack.ask("715308958_rPwTzvsvCm", { channelId: "C0RUSSIAN5" });
    const stopped = await press(card.body, "invoice_stop_watch");
    expect(JSON.stringify(stopped)).toContain("остановил");
    expect(englishWords(stopped, names)).toEqual([]);

    const list = await stack.ask("list", { channelId: "C0RUSSIAN5" });
    if (buttonsOf(list.reply.body).some((element) => element.action_id === "invoice_list_next")) {
      expect(englishWords(await press(list.reply.body, "invoice_list_next", true), names)).toEqual([]);
    }
    expect(englishWords(await press(list.reply.body, "invoice_list_share", true), names)).toEqual([]);

    stack.fake.methods.push(
      ...Array.from({ length: 25 }, (_, index) => ({
        ...(stack.fake.methods[0] as (typeof stack.fake.methods)[number]),
        code: `EXTRA${index}`,
      })),
    );
    const methods = await stack.ask("", { command: "/paymethods", channelId: "C0RUSSIAN5" });
    // The list is cached since the first /paymethods: Refresh reads the longer one.
    const refreshed = await press(methods.reply.body, "paymethods_refresh");
    expect(englishWords(refreshed, names)).toEqual([]);
    const next = await press(refreshed, "paymethods_next");
    expect(JSON.stringify(next)).toContain("страница 2");
    expect(englishWords(next, names)).toEqual([]);

    stack.slack.users.U0RUADMIN = { is_admin: true };
    const subscribed = await stack.ask("subscribe", { channelId: "C0RUSSIANFEED", userId: "U0RUADMIN" });
    expect(englishWords(subscribed.reply.body)).toEqual([]);
    const welcome = [...stack.slack.messages.values()].find((message) => message.channel === "C0RUSSIANFEED");
    expect(welcome?.text).toContain("лентой платежей");
    const unsubscribed = await stack.ask("unsubscribe", { channelId: "C0RUSSIANFEED", userId: "U0RUADMIN" });
    expect(englishWords(unsubscribed.reply.body)).toEqual([]);
  });

  it("gets usage and failure replies in Russian", async () => {
    for (const text of [
      "not an id!",
      "help",
      FAULT_IDS.html502,
      FAULT_IDS.brokenJson,
      "715308958_NoSuchInvoice",
    ]) {
      const { reply } = await stack.ask(text, { channelId: "C0RUSSIAN2" });
      // The person's own text is quoted back as they typed it, and the service's own words
      // ("Invoice not found") as it wrote them, in the details line.
      expect(englishWords(reply.body, ["not", "an", "id", "Invoice", "found"]), text).toEqual([]);
    }
  });
});

describe("a Russian workspace's forms, App Home and unfurls", () => {
  let stack: Stack;
  const ADMIN = "U0RUFORMS";
  beforeAll(async () => {
    stack = await startRussian({ storeMemoMs: 0 });
    stack.slack.users[ADMIN] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  /** What the service names itself (methods, brands): quoted as it writes them. */
  const names = () => [...stack.fake.methods.flatMap((method) => method.name.split(/[\s()]+/)), "CrystalPAY"];
  const viewOf = (body: Record<string, unknown>) =>
    (typeof body.view === "string" ? JSON.parse(body.view) : body.view) as Record<string, unknown>;
  async function openModal(text: string, userId = ADMIN): Promise<Record<string, unknown>> {
    const opened = stack.slack.callsOf("views.open").length;
    expect((await stack.command(text, { userId, channelId: "C0RUFORMS" })).status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.open").length).toBe(opened + 1);
    return viewOf(stack.slack.callsOf("views.open").at(-1)?.body ?? {});
  }

  it("opens /invoice new's form, answers its errors and posts the created card in Russian", async () => {
    const view = await openModal("new 1500 RUB");
    expect(JSON.stringify(view)).toContain("Новый счёт");
    expect(englishWords(view, names())).toEqual([]);
    const submit = (amount: string) =>
      stack.submitView({
        view,
        values: {
          [CREATE_FIELDS.amount]: { value: amount },
          [CREATE_FIELDS.currency]: { selected: "RUB" },
          [CREATE_FIELDS.lifetime]: { value: "60" },
        },
        userId: ADMIN,
      });
    const wrong = await submit("полторы тысячи");
    expect(wrong.json).toMatchObject({ response_action: "errors" });
    expect(englishWords(wrong.json)).toEqual([]);
    expect(Object.values((wrong.json?.errors ?? {}) as Record<string, string>).join(" ")).toMatch(/[а-я]/);

    const posts = stack.slack.callsOf("chat.postMessage").length;
    const created = await submit("1500.5");
    expect(created.json?.response_action).toBeUndefined();
    await expect.poll(() => stack.slack.callsOf("chat.postMessage").length).toBe(posts + 1);
    const card = stack.slack.callsOf("chat.postMessage").at(-1)?.body ?? {};
    const blocks = typeof card.blocks === "string" ? JSON.parse(card.blocks) : card.blocks;
    expect(JSON.stringify(blocks)).toContain("1\u00a0500,50 RUB");
    expect(englishWords({ text: card.text, blocks }, names())).toEqual([]);

    const member = await stack.ask("new 10", { userId: "U0RUMEMBER", channelId: "C0RUFORMS" });
    expect(englishWords(member.reply.body)).toEqual([]);
  });

  it("opens the connect form and shows the service's refusal in Russian, its own words quoted", async () => {
    const view = await openModal("connect");
    expect(englishWords(view, ["English"])).toEqual([]);
    const refused = await stack.submitView({
      view,
      values: {
        login: { value: "sandbox_register" },
        secret: { value: "wrong-secret" },
        api_version: { selected: "v2" },
        visibility: { selected: "channel" },
      },
      userId: ADMIN,
    });
    expect(refused.json).toMatchObject({ response_action: "errors" });
    // "Invalid auth credentials" is what the payment service wrote, quoted as it wrote it.
    expect(englishWords(refused.json, ["Invalid", "auth", "credentials"])).toEqual([]);
    expect(JSON.stringify(refused.json)).toMatch(/[а-я]/);
  });

  it("publishes App Home and unfurls payment links in Russian", async () => {
    const published = stack.slack.callsOf("views.publish").length;
    expect(
      (await stack.event({ type: "app_home_opened", user: ADMIN, tab: "home", channel: "D0HOME" })).status,
    ).toBe(200);
    await expect.poll(() => stack.slack.callsOf("views.publish").length).toBe(published + 1);
    const home = viewOf(stack.slack.callsOf("views.publish").at(-1)?.body ?? {});
    expect(JSON.stringify(home)).toContain("Русский");
    // "cli": who connected the register, as stored (the operator's command line).
    expect(englishWords(home, ["cli"])).toEqual([]);

    const unfurls = stack.slack.callsOf("chat.unfurl").length;
    const url = "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm";
    expect((await stack.shareLinks([url])).status).toBe(200);
    await expect.poll(() => stack.slack.callsOf("chat.unfurl").length, { timeout: 10_000 }).toBe(unfurls + 1);
    const raw = stack.slack.callsOf("chat.unfurl").at(-1)?.body.unfurls;
    const unfurl = (typeof raw === "string" ? JSON.parse(raw) : raw) as Record<string, unknown>;
    expect(JSON.stringify(unfurl[url])).toContain("Не оплачен");
    expect(englishWords(unfurl[url], names())).toEqual([]);
  });
});

describe("choosing the language with /invoice language", () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ storeMemoMs: 0 });
    stack.slack.users.U0LANGADMIN = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it("is for admins; switches everything to Russian and back, and /invoice status says which", async () => {
    const refused = await stack.ask("language ru", { userId: "U0NOTADMIN" });
    expect(JSON.stringify(refused.reply.body)).toContain("change the language Kassa writes in");
    const usage = await stack.ask("language fr", { userId: "U0LANGADMIN" });
    expect(JSON.stringify(usage.reply.body)).toContain(
      "`/invoice language` takes `en` (English) or `ru` (Russian)",
    );

    const set = await stack.ask("language ru", { userId: "U0LANGADMIN" });
    expect(JSON.stringify(set.reply.body)).toContain("по-русски");
    expect(englishWords(set.reply.body)).toEqual([]);
    const status = await stack.ask("status", { userId: "U0LANGADMIN" });
    expect(JSON.stringify(status.reply.body)).toContain("Язык: Русский");
    // "cli": who connected the register, as stored (the operator's command line).
    expect(englishWords(status.reply.body, ["cli"])).toEqual([]);
    const { reply } = await stack.ask("715308958_rPwTzvsvCm", { channelId: "C0LANG" });
    expect(JSON.stringify(reply.body)).toContain("Счёт 715308958_rPwTzvsvCm");

    const back = await stack.ask("language en", { userId: "U0LANGADMIN" });
    expect(JSON.stringify(back.reply.body)).toContain("Kassa now writes in English");
    const english = await stack.ask("status", { userId: "U0LANGADMIN" });
    expect(JSON.stringify(english.reply.body)).toContain("Language: English");
  });
});
