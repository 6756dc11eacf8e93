/**
 * A re-issued link's old card keeps saying so (issue 51, item 3), through the real app against the
 * sandbox on API v3: after a re-issue, every later draw of the old invoice's card (its Refresh,
 * `/invoice OLD_ID`, in English and in Russian, and the live card's redraw when the old link is paid
 * late) still says "Replaced by NEW (by @person)" and offers no Re-issue.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moscowTime } from "../../sandbox/payments-samples.js";
import { SANDBOX_TEAM } from "../../sandbox/slack.js";
import { Stack } from "../../sandbox/stack.js";
import { INVOICE_ACTIONS, LINK_ACTIONS } from "../../src/blocks/ids.js";
import { CREATE_FIELDS } from "../../src/blocks/invoice-create.js";
import { openStore } from "../../src/store/keyv.js";
import { settingsStoreFor } from "../../src/store/settings.js";
import { linkCardOf, linkFromForm } from "../support/links-e2e.js";

const ADMIN = "U0ADMIN";
const OTHER = "U0OTHER";
const CHANNEL = "C0FINANCE";
type Block = { elements?: Array<{ action_id?: string; value?: string }> };

const buttonOf = (blocks: unknown, actionId: string): string | undefined =>
  ((blocks ?? []) as Block[])
    .flatMap((block) => block.elements ?? [])
    .find((element) => element.action_id === actionId)?.value;

describe("a re-issued link's old card, drawn again", () => {
  let stack: Stack;
  let views = 0;
  beforeAll(async () => {
    stack = await Stack.start({
      apiVersion: "v3",
      storeMemoMs: 0,
      env: { LINKS_CHECK_MS: "3600000", WATCH_INTERVAL_MS: "100" },
    });
    stack.slack.users[ADMIN] = { is_admin: true };
    stack.slack.users[OTHER] = { is_admin: true };
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const cardOf = (id: string) => linkCardOf(stack, CHANNEL, id);

  /** A link made with the form; its invoice id and its card's ts. */
  async function created(amount: string): Promise<{ id: string; ts: string }> {
    views += 1;
    return linkFromForm(stack, {
      channel: CHANNEL,
      userId: ADMIN,
      viewId: `V0REDRAW${views}`,
      values: {
        [CREATE_FIELDS.amount]: { value: amount },
        [CREATE_FIELDS.currency]: { selected: "RUB" },
        [CREATE_FIELDS.lifetime]: { value: "90" },
        [CREATE_FIELDS.description]: { value: "Annual plan" },
        [CREATE_FIELDS.customer]: { value: "Acme Ltd" },
        [CREATE_FIELDS.extra]: { value: "PO-9" },
      },
    });
  }

  /** `/invoice ID`'s card: the reply itself, or the message it posted in the channel. */
  async function lookedUp(id: string): Promise<unknown[]> {
    const { reply } = await stack.ask(id, { userId: ADMIN, channelId: CHANNEL });
    const posted =
      typeof reply.body.ts === "string" && stack.slack.messages.get(`${CHANNEL}:${reply.body.ts}`);
    return (posted ? posted.blocks : (reply.body as { blocks?: unknown[] }).blocks) ?? [];
  }

  async function setLanguage(language: "ru" | "en"): Promise<void> {
    const store = await openStore(stack.env.STORE_URL ?? "");
    try {
      await settingsStoreFor(store).update(SANDBOX_TEAM.id, { language });
    } finally {
      await store.close();
    }
  }

  it("an expired link re-issued: Refresh on its old card and /invoice OLD_ID still say what replaced it, in English and Russian", async () => {
    const { id, ts } = await created("1500");
    const invoice = stack.fake.invoices.get(id);
    if (!invoice) throw new Error(`no invoice ${id}`);
    invoice.expiredAt = moscowTime(new Date(Date.now() - 60_000));
    await expect
      .poll(async () => {
        await stack.pass("liveCards");
        return buttonOf(cardOf(id)?.blocks, LINK_ACTIONS.reissue);
      })
      .toBeDefined();
    const reissue = buttonOf(cardOf(id)?.blocks, LINK_ACTIONS.reissue) ?? "";
    await stack.press(LINK_ACTIONS.reissue, reissue, { userId: OTHER, channelId: CHANNEL, messageTs: ts });
    const second = stack.fake.created.at(-1) ?? "";
    expect(second).not.toBe(id);
    const replaced = `*Replaced by* \`${second}\` (by <@${OTHER}>)`;
    await expect.poll(() => JSON.stringify(cardOf(id)?.blocks)).toContain(replaced);

    // Refresh on the old card: read again, redrawn in place, still replaced.
    const old = cardOf(id);
    const refresh = buttonOf(old?.blocks, INVOICE_ACTIONS.refresh) ?? "";
    const message = { type: "message", ts, text: old?.text ?? "", blocks: old?.blocks ?? [] };
    const pressed = await stack.press(INVOICE_ACTIONS.refresh, refresh, {
      userId: ADMIN,
      channelId: CHANNEL,
      messageTs: ts,
      message,
    });
    const refreshed = pressed.reply.body as { blocks?: unknown[]; replace_original?: boolean };
    expect(refreshed.replace_original).toBe(true);
    expect(JSON.stringify(refreshed.blocks)).toContain(replaced);
    expect(JSON.stringify(refreshed.blocks)).toContain("Acme Ltd");
    expect(buttonOf(refreshed.blocks, LINK_ACTIONS.reissue)).toBeUndefined();
    expect(buttonOf(refreshed.blocks, INVOICE_ACTIONS.refresh)).toBeDefined();

    // `/invoice OLD_ID`: the same.
    const card = await lookedUp(id);
    expect(JSON.stringify(card)).toContain(`Invoice ${id}`);
    expect(JSON.stringify(card)).toContain(replaced);
    expect(buttonOf(card, LINK_ACTIONS.reissue)).toBeUndefined();

    // The new invoice's own card is not marked.
    const fresh = await lookedUp(second);
    expect(JSON.stringify(fresh)).not.toContain("Replaced by");

    // In a Russian workspace, the line in Russian.
    await setLanguage("ru");
    try {
      const russian = JSON.stringify(await lookedUp(id));
      expect(russian).toContain(`*Заменён счётом* \`${second}\` (перевыпустил(а) <@${OTHER}>)`);
      expect(russian).not.toContain("Replaced by");
      expect(buttonOf(JSON.parse(russian), LINK_ACTIONS.reissue)).toBeUndefined();
    } finally {
      await setLanguage("en");
    }
  });

  it("an open link re-issued early and then paid late: the live card's redraw keeps what replaced it", async () => {
    const { id, ts } = await created("700");
    const { reply } = await stack.ask(`reissue ${id}`, { userId: ADMIN, channelId: CHANNEL });
    const anyway = buttonOf((reply.body as { blocks?: unknown[] }).blocks, LINK_ACTIONS.reissue) ?? "";
    await stack.press(LINK_ACTIONS.reissue, anyway, { userId: ADMIN, ephemeral: true });
    const second = stack.fake.created.at(-1) ?? "";
    expect(second).not.toBe(id);
    const replaced = `*Replaced by* \`${second}\` (by <@${ADMIN}>)`;
    await expect.poll(() => JSON.stringify(cardOf(id)?.blocks)).toContain(replaced);

    // The old link paid late: its live card is redrawn Paid, and still says what replaced it.
    stack.fake.pay(id);
    await expect
      .poll(async () => {
        await stack.pass("liveCards");
        return JSON.stringify(cardOf(id)?.blocks);
      })
      .toContain(":white_check_mark: Paid");
    const old = JSON.stringify(cardOf(id)?.blocks);
    expect(old).toContain(replaced);
    expect(buttonOf(cardOf(id)?.blocks, LINK_ACTIONS.reissue)).toBeUndefined();
    expect(stack.slack.threadOf(CHANNEL, ts).some((note) => (note.text ?? "").includes("Paid"))).toBe(true);
  });
});
