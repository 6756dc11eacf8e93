import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stopButton } from "../../src/blocks/button-values.js";
import {
  ADMIN_ACTIONS,
  INVOICE_ACTIONS,
  LIST_ACTIONS,
  PAYMETHODS_ACTIONS,
  WATCH_ACTIONS,
} from "../../src/blocks/ids.js";
import { disconnect } from "../../src/listeners/actions/admin.js";
import { invoiceCardButton } from "../../src/listeners/actions/invoice.js";
import { invoiceListButton } from "../../src/listeners/actions/invoice-list.js";
import { paymethodsPageButton } from "../../src/listeners/actions/paymethods.js";
import { stopWatch } from "../../src/listeners/actions/watch.js";
import { invoiceCommand } from "../../src/listeners/commands/invoice.js";
import {
  ADMIN,
  buttonArgs,
  CHANNEL,
  commandArgs,
  type ListenerWorld,
  listenerWorld,
  MEMBER,
  TEAM,
} from "../support/listener-world.js";

// Buttons carry values anyone able to change a payload could change: a value Kassa does not write
// answers "out of date" (or "another workspace"), logged at warn, never "Something went wrong" and
// an error line. Stop updating on a live card is for its asker, the invoice's creator and admins.

const UNPAID = "715308958_rPwTzvsvCm";
const OTHER = "U0BYSTANDER";

let world: ListenerWorld;
beforeEach(async () => {
  world = await listenerWorld();
  world.slack.users[OTHER] = {};
  world.slack.users.U0CREATOR = {};
});
afterEach(async () => {
  await world.close();
});

const reply = (id: string) => world.slack.waitForReply(id, { timeoutMs: 3000 }).then((entry) => entry.body);
const lastLine = () => world.lines.filter((line) => line.outcome !== undefined).at(-1);
const errorLines = () => world.lines.filter((line) => line.level === "error");

describe("a button value Kassa does not write is out of date", () => {
  const cases: Array<
    [string, string, (deps: ListenerWorld["deps"]) => ReturnType<typeof stopWatch>, string]
  > = [
    ["a list page of -1", LIST_ACTIONS.next, invoiceListButton, JSON.stringify({ t: TEAM, f: "all", p: -1 })],
    [
      "a list page of 1e9",
      LIST_ACTIONS.next,
      invoiceListButton,
      JSON.stringify({ t: TEAM, f: "all", p: 1e9 }),
    ],
    [
      "a list page of 1.5",
      LIST_ACTIONS.previous,
      invoiceListButton,
      JSON.stringify({ t: TEAM, f: "all", p: 1.5 }),
    ],
    [
      "a list filter Kassa has not",
      LIST_ACTIONS.share,
      invoiceListButton,
      JSON.stringify({ t: TEAM, f: "x", p: 1 }),
    ],
    ["a method page of 0", PAYMETHODS_ACTIONS.next, paymethodsPageButton, JSON.stringify({ f: "", p: 0 })],
    [
      "a method filter the command refuses",
      PAYMETHODS_ACTIONS.refresh,
      paymethodsPageButton,
      JSON.stringify({ f: "help", p: 1 }),
    ],
    ["a Refresh value that is not JSON", INVOICE_ACTIONS.refresh, invoiceCardButton, "{"],
    [
      "a Refresh of an id no invoice has",
      INVOICE_ACTIONS.refresh,
      invoiceCardButton,
      JSON.stringify({ t: TEAM, id: "../x", s: "payed" }),
    ],
    ["a Stop value without its invoice", WATCH_ACTIONS.stop, stopWatch, JSON.stringify({ t: TEAM })],
    ["a Disconnect value that is not JSON", ADMIN_ACTIONS.disconnect, disconnect, "not json"],
    [
      "a Disconnect value without its workspace",
      ADMIN_ACTIONS.disconnect,
      disconnect,
      JSON.stringify({ t: "" }),
    ],
  ];

  it.each(cases)("%s", async (_name, actionId, handler, value) => {
    const before = world.fake.requests.length;
    await handler(world.deps)(buttonArgs(world, { actionId, value, replyId: "pressed" }));
    const body = await reply("pressed");
    expect(JSON.stringify(body)).toContain("This button is out of date, so nothing was done");
    expect(JSON.stringify(body)).not.toContain("Something went wrong");
    // A card or list stays as it was, the note beside it; the Disconnect question is answered in place.
    expect(body.replace_original).toBe(actionId === ADMIN_ACTIONS.disconnect);
    expect(lastLine()).toMatchObject({ action: actionId, outcome: "stale_button", level: "warn" });
    expect(errorLines()).toEqual([]);
    // Nothing was read or changed.
    expect(world.fake.requests).toHaveLength(before);
    expect(await world.deps.stores.credentials.get(TEAM)).toBeDefined();
  });

  it("says so in Russian in a Russian workspace", async () => {
    await world.deps.stores.settings.update(TEAM, { language: "ru" });
    const value = JSON.stringify({ t: TEAM, f: "all", p: -1 });
    await invoiceListButton(world.deps)(
      buttonArgs(world, { actionId: LIST_ACTIONS.next, value, replyId: "ru" }),
    );
    expect(JSON.stringify(await reply("ru"))).toContain("Эта кнопка устарела");
  });

  it("a Disconnect question of another workspace says so, and disconnects nothing", async () => {
    const value = JSON.stringify({ t: "T0OTHER" });
    await disconnect(world.deps)(
      buttonArgs(world, { actionId: ADMIN_ACTIONS.disconnect, value, replyId: "other" }),
    );
    expect(JSON.stringify(await reply("other"))).toContain("belongs to another workspace");
    expect(lastLine()).toMatchObject({ outcome: "foreign_card", level: "info" });
    expect(await world.deps.stores.credentials.get(TEAM)).toBeDefined();
    expect(errorLines()).toEqual([]);
  });
});

describe("Stop updating on a live card", () => {
  /** A live card of UNPAID posted in the channel for `asker` (through /invoice, as Slack shows it). */
  async function cardFor(asker: string): Promise<{ ts: string; text: string; blocks: unknown[] }> {
    const posted = world.slack.callsOf("chat.postMessage").length;
    await invoiceCommand(world.deps)(
      commandArgs(world, {
        command: "/invoice",
        text: UNPAID,
        user: asker,
        replyId: `ask-${asker}-${posted}`,
      }),
    );
    await expect.poll(() => world.slack.callsOf("chat.postMessage").length).toBe(posted + 1);
    const card = [...world.slack.messages.values()].filter((message) => message.channel === CHANNEL).at(-1);
    if (!card) throw new Error("no card was posted");
    expect(JSON.stringify(card.blocks)).toContain(WATCH_ACTIONS.stop);
    return { ts: card.ts, text: card.text, blocks: card.blocks };
  }

  const press = (user: string, card: { ts: string; text: string; blocks: unknown[] }, replyId: string) =>
    stopWatch(world.deps)(
      buttonArgs(world, {
        actionId: WATCH_ACTIONS.stop,
        value: stopButton.write({ t: TEAM, id: UNPAID }),
        user,
        card,
        replyId,
      }),
    );

  it("is refused to someone else, who is told who can; the card stays live", async () => {
    const card = await cardFor(MEMBER);
    await press(OTHER, card, "bystander");
    const body = await reply("bystander");
    const text = JSON.stringify(body);
    expect(text).toContain(`<@${MEMBER}> (who asked for it)`);
    expect(text).toContain("workspace admins and owners");
    expect(body).toMatchObject({ response_type: "ephemeral", replace_original: false });
    expect(lastLine()).toMatchObject({ outcome: "not_allowed", user: OTHER, invoice: UNPAID });
    expect(await world.deps.watches.count(TEAM)).toBe(1);
  });

  it("is done for the person who asked for the card", async () => {
    const card = await cardFor(MEMBER);
    await press(MEMBER, card, "asker");
    const body = await reply("asker");
    expect(body.replace_original).toBe(true);
    expect(JSON.stringify(body)).toContain(`Live updates stopped by <@${MEMBER}>`);
    expect(lastLine()).toMatchObject({ outcome: "watch_stopped" });
    expect(await world.deps.watches.count(TEAM)).toBe(0);
  });

  it("is done for a workspace admin", async () => {
    const card = await cardFor(MEMBER);
    await press(ADMIN, card, "admin");
    expect((await reply("admin")).replace_original).toBe(true);
    expect(await world.deps.watches.count(TEAM)).toBe(0);
  });

  it("is done for the invoice's creator, on someone else's card of it, and the refusal names both", async () => {
    await world.deps.stores.cardOwners.noteCreator(TEAM, UNPAID, "U0CREATOR");
    const card = await cardFor(MEMBER);
    await press(OTHER, card, "refused");
    const refused = JSON.stringify(await reply("refused"));
    expect(refused).toContain(`<@${MEMBER}> (who asked for it)`);
    expect(refused).toContain("<@U0CREATOR> (who created the invoice)");
    await press("U0CREATOR", card, "creator");
    expect((await reply("creator")).replace_original).toBe(true);
    expect(await world.deps.watches.count(TEAM)).toBe(0);
  });

  it("tells who can in Russian in a Russian workspace", async () => {
    await world.deps.stores.settings.update(TEAM, { language: "ru" });
    const card = await cardFor(MEMBER);
    await press(OTHER, card, "ru");
    const text = JSON.stringify(await reply("ru"));
    expect(text).toContain(`<@${MEMBER}> (кто её запросил)`);
    expect(text).toContain("остановить их могут только");
  });
});
