import { describe, expect, it } from "vitest";
import { feedSettingsButton, invoiceButton } from "../../src/blocks/button-values.js";
import { buildFeedMessage, feedWelcomeMessage } from "../../src/blocks/feed.js";
import { feedFormModal } from "../../src/blocks/feed-form.js";
import { withRegisterLine } from "../../src/blocks/registers.js";
import { feedSections } from "../../src/blocks/status-lines.js";
import { englishWords } from "../support/english-words.js";
import { unpaidInvoice } from "../support/watch-fixtures.js";

/** What a feed's messages say of their register where the workspace has several, and only then. */
describe("feeds and digests of one of several registers", () => {
  const paid = { ...unpaidInvoice("715308958_rPwTzvsvCm"), state: "payed" };
  const actionValue = (blocks: unknown[]) => {
    const actions = blocks.find((block) => (block as { type: string }).type === "actions") as {
      elements: Array<{ value: string }>;
    };
    return JSON.parse(actions.elements[0]?.value ?? "{}") as Record<string, unknown>;
  };

  it("a feed message starts with its register, and its Open reads the invoice there", () => {
    const message = buildFeedMessage(paid, { teamId: "T1", isNew: false, register: "shop2" });
    expect(message.text).toMatch(/^shop2 · Invoice 715308958_rPwTzvsvCm: Paid/);
    expect(JSON.stringify(message.blocks)).toContain("*shop2* · :white_check_mark: *Paid*");
    const value = invoiceButton.schema.parse(actionValue(message.blocks));
    expect(value).toMatchObject({ t: "T1", r: "shop2" });
    const alone = buildFeedMessage(paid, { teamId: "T1", isNew: false });
    expect(alone.text).toMatch(/^Invoice /);
    expect(actionValue(alone.blocks)).not.toHaveProperty("r");
  });

  it("the welcome, its Settings, the form and the status line carry the register; one register: none", () => {
    const welcome = feedWelcomeMessage("paid invoices", "U0ADMIN", {
      teamId: "T1",
      channel: "C0SHOP",
      register: "shop2",
    });
    expect(welcome.text).toMatch(/^Register \*shop2\*: /);
    expect(feedSettingsButton.schema.parse(actionValue(welcome.blocks))).toEqual({
      t: "T1",
      c: "C0SHOP",
      r: "shop2",
    });
    const plain = feedWelcomeMessage("paid invoices", "U0ADMIN", { teamId: "T1", channel: "C0SHOP" });
    expect(plain.text).not.toContain("Register");
    expect(actionValue(plain.blocks)).toEqual({ t: "T1", c: "C0SHOP" });

    const form = feedFormModal({
      channel: "C0SHOP",
      isFeed: false,
      filter: { events: ["paid"] },
      mentions: null,
      methods: undefined,
      maxPeople: 10,
      origin: { t: "T1", c: "C0SHOP", r: "shop2" },
      lang: "ru",
    });
    expect(JSON.parse(String(form.private_metadata))).toEqual({ t: "T1", c: "C0SHOP", r: "shop2" });
    expect(JSON.stringify(form.blocks)).toContain("Касса *shop2*: ");

    const sections = feedSections(
      [{ channel: "C0SHOP", filter: { events: ["paid"] }, register: "shop2" }],
      { teamId: "T1", canManage: true },
      "ru",
    );
    const line = sections[1] as { text: { text: string }; accessory: { value: string } };
    expect(line.text.text).toMatch(/^<#C0SHOP> \(Касса \*shop2\*\): /);
    expect(englishWords(line.text.text)).toEqual([]);
    expect(JSON.parse(line.accessory.value)).toEqual({ t: "T1", c: "C0SHOP", r: "shop2" });
  });

  it("a digest's message ends naming its register, in both languages; without one it is unchanged", () => {
    const message = { text: "Invoices yesterday: 3 created", blocks: [{ type: "divider" as const }] };
    const named = withRegisterLine(message, "shop2", "ru");
    expect(named.text).toBe("shop2 · Invoices yesterday: 3 created");
    expect(named.blocks.at(-1)).toEqual({
      type: "context",
      elements: [{ type: "mrkdwn", text: "Касса *shop2*" }],
    });
    expect(withRegisterLine(message, undefined, "en")).toBe(message);
    const full = { ...message, blocks: Array.from({ length: 50 }, () => ({ type: "divider" as const })) };
    expect(withRegisterLine(full, "shop2", "en").blocks).toHaveLength(50);
  });
});
