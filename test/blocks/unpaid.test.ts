/**
 * `/invoice unpaid`'s page and the digests' line (src/blocks/unpaid.ts): each customer's heading with
 * its totals per currency, a Re-issue on each link carrying its ref, time left or how long ago it
 * expired, Previous / Next with the period and customer; within Block Kit's limits and in Russian
 * throughout.
 */
import { describe, expect, it } from "vitest";
import { linkButton, unpaidPageButton } from "../../src/blocks/button-values.js";
import { LINK_ACTIONS, UNPAID_ACTIONS } from "../../src/blocks/ids.js";
import { buildUnpaidPage, UNPAID_PAGE_SIZE, unpaidDigestBlock } from "../../src/blocks/unpaid.js";
import type { LinkRecord } from "../../src/links/record.js";
import type { UnpaidGroup, UnpaidLink } from "../../src/links/unpaid.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords } from "../support/english-words.js";

const NOW = Date.UTC(2027, 0, 15, 10);
const HOUR = 3_600_000;

function link(
  index: number,
  known: UnpaidLink["known"],
  expiresAt: number,
  more: Partial<UnpaidLink> = {},
): UnpaidLink {
  const record: LinkRecord = {
    v: 1,
    ref: `abcdefgh${"ab"[index % 2]}${String.fromCharCode(97 + (index % 26))}`,
    status: "created",
    marked: true,
    team: "T0UNPAID",
    amount: "1500.5",
    currency: "RUB",
    description: `Order <${index}> & *bold* ${"x".repeat(600)}`,
    lifetimeMinutes: 60,
    creator: "U0CREATOR",
    via: "form",
    createdAt: expiresAt - HOUR,
    expiresAt,
    invoiceId: `90000${index}_x`,
  };
  return { record, invoiceId: record.invoiceId ?? "", expiresAt, known, ...more };
}

function group(customer: string | undefined, rows: UnpaidLink[], continued = false): UnpaidGroup {
  return {
    customer,
    count: rows.length + 3,
    totals: [
      { value: "4500.5", currency: "RUB" },
      { value: "20", currency: "USD" },
    ],
    rows,
    continued,
  };
}

const page = (groups: UnpaidGroup[], pageNumber = 2, hasMore = true) => ({
  groups,
  page: pageNumber,
  hasMore,
  count: 137,
});

describe("the unpaid links' page", () => {
  it("groups by customer with totals, time left or ago, Re-issue with the link's ref, pages with period and customer", () => {
    const open = link(1, "open", NOW + 2 * HOUR + 5 * 60_000);
    const expired = link(2, "expired", NOW - 3 * 24 * HOUR - HOUR);
    const message = buildUnpaidPage({
      teamId: "T0UNPAID",
      register: "shop2",
      period: "30d",
      customer: "Acme",
      result: page([
        group("Acme <Ltd>", [open, expired], true),
        group(undefined, [link(3, "closed", NOW - HOUR)]),
      ]),
      now: NOW,
      lang: "en",
    });
    const text = JSON.stringify(message.blocks);
    expect(text).toContain("Unpaid payment links · last 30 days");
    expect(text).toContain("*Acme &lt;Ltd&gt;* · 5 links · 4,500.50 RUB + 20.00 USD (continued)");
    expect(text).toContain("*No customer* · 4 links");
    expect(text).toContain("Open, 2 h 5 min left");
    expect(text).toContain("Expired 3 days 1 h ago");
    expect(text).toContain("Its page closed");
    expect(text).toContain("Order &lt;1&gt; &amp; *bold* xxx");
    const buttons = message.blocks.flatMap((block) =>
      block.type === "section" && block.accessory?.type === "button" ? [block.accessory] : [],
    );
    expect(buttons.map((button) => button.action_id)).toEqual(Array(3).fill(LINK_ACTIONS.reissue));
    expect(linkButton.schema.parse(JSON.parse(buttons[0]?.value ?? ""))).toEqual({
      t: "T0UNPAID",
      k: open.record.ref,
      r: "shop2",
    });
    const pages = message.blocks.flatMap((block) => (block.type === "actions" ? block.elements : []));
    expect(pages.map((button) => button.type === "button" && button.action_id)).toEqual([
      UNPAID_ACTIONS.previous,
      UNPAID_ACTIONS.next,
    ]);
    const next = pages[1];
    expect(next?.type === "button" && unpaidPageButton.schema.parse(JSON.parse(next.value ?? ""))).toEqual({
      t: "T0UNPAID",
      p: 3,
      d: "30d",
      c: "Acme",
      r: "shop2",
    });
    expect(message.response_type).toBe("ephemeral");
    expectWithinBlockKitLimits(message);
  });

  it("a full page of ten customers with long names stays within Block Kit's limits, in both languages", () => {
    const russian = (index: number) => {
      const row = link(index, "open", NOW + HOUR, { unchecked: true });
      return { ...row, record: { ...row.record, description: "Заказ ".repeat(100) } };
    };
    const groups = Array.from({ length: UNPAID_PAGE_SIZE }, (_, index) =>
      group(`${"Клиент ".repeat(12)}${index}`.slice(0, 80), [russian(index)]),
    );
    for (const lang of ["en", "ru"] as const) {
      const message = buildUnpaidPage({
        teamId: "T0UNPAID",
        period: "2026-12",
        customer: "Клиент".repeat(14).slice(0, 80),
        result: page(groups),
        now: NOW,
        lang,
      });
      expectWithinBlockKitLimits(message);
      if (lang === "ru") expect(englishWords(message)).toEqual([]);
    }
  });

  it("none: says so and what to try; past the last page: says that", () => {
    const none = buildUnpaidPage({
      teamId: "T0UNPAID",
      period: "7d",
      result: page([], 1, false),
      now: NOW,
      lang: "ru",
    });
    expect(JSON.stringify(none.blocks)).toContain("не ждёт оплаты");
    expect(englishWords(none)).toEqual([]);
    expect(none.blocks.some((block) => block.type === "actions")).toBe(false);
    const past = buildUnpaidPage({
      teamId: "T0UNPAID",
      period: "7d",
      result: page([], 4, false),
      now: NOW,
      lang: "en",
    });
    expect(JSON.stringify(past.blocks)).toContain("past the last one");
  });
});

describe("the digests' line", () => {
  it("how many are open and for how much, and how many expired; none when nothing waits", () => {
    const tally = {
      open: 3,
      openTotals: [
        { value: "1500", currency: "RUB" },
        { value: "20", currency: "USD" },
      ],
      expired: 2,
    };
    expect(JSON.stringify(unpaidDigestBlock(tally, "en"))).toContain(
      "Unpaid payment links: 3 open for 1,500.00 RUB + 20.00 USD (2 expired)",
    );
    const ru = unpaidDigestBlock(tally, "ru");
    expect(JSON.stringify(ru)).toContain("открыто 3 на 1");
    expect(englishWords({ blocks: [ru] })).toEqual([]);
    expect(JSON.stringify(unpaidDigestBlock({ open: 0, openTotals: [], expired: 1 }, "en"))).toContain(
      "0 open (1 expired)",
    );
    expect(unpaidDigestBlock({ open: 0, openTotals: [], expired: 0 }, "en")).toBeUndefined();
  });
});
