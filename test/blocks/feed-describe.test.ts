import { describe, expect, it } from "vitest";
import { buildFeedMessage } from "../../src/blocks/feed.js";
import { describeFeed, describeFilter, describeMentions } from "../../src/blocks/feed-describe.js";
import { feedFormModal } from "../../src/blocks/feed-form.js";
import { unpaidInvoice } from "../support/watch-fixtures.js";

describe("a feed in words", () => {
  it("says what it posts and whom it mentions, as the issue's example reads", () => {
    expect(
      describeFeed({
        filter: { events: ["paid"], minRub: "10000" },
        mentions: { users: ["U0ANNA"], payments: true, minRub: "50000", failures: false },
      }),
    ).toBe("paid invoices from 10,000 RUB, mentions <@U0ANNA> from 50,000 RUB");
    expect(describeFilter({ events: ["failed", "wrongamount", "expired"] })).toBe(
      "failed, wrong-amount, and expired unpaid invoices",
    );
    expect(describeFilter({ events: ["expired", "new", "paid", "failed", "wrongamount"] })).toBe(
      "every new, paid, failed, wrong-amount and expired unpaid invoice",
    );
    expect(
      describeFilter({ events: ["paid"], minRub: "1500.5", methods: ["BITCOIN", "TON"], tests: false }),
    ).toBe("paid invoices from 1,500.5 RUB, paid by `BITCOIN` and `TON`, no test payments");
    expect(describeMentions({ users: ["U0ANNA", "U0BORIS"], payments: true, failures: true })).toBe(
      "mentions <@U0ANNA> and <@U0BORIS> on every payment and on failures",
    );
    expect(describeMentions({ users: ["U0ANNA"], payments: false, failures: true }, "ru")).toBe(
      "с упоминанием <@U0ANNA> при сбоях",
    );
    // Only Slack user ids become mentions, whatever reached the store.
    expect(describeMentions({ users: ["<!channel>", "U0ANNA"], payments: true, failures: false })).toBe(
      "mentions <@U0ANNA> on every payment",
    );
  });

  it("a message mentions the form's people in its text after escaping, never the service's words", () => {
    const invoice = {
      ...unpaidInvoice("715308958_rPwTzvsvCm"),
      state: "payed",
      description: "<!channel> <@U0BOSS>",
    };
    const message = buildFeedMessage(invoice, {
      teamId: "T1",
      isNew: false,
      why: { filter: { events: ["paid"] }, mention: { users: ["U0ANNA"], why: "payment", minRub: null } },
    });
    expect(message.text).toMatch(/ · <@U0ANNA>$/);
    expect(message.text).not.toContain("<!channel>");
    const blocks = JSON.stringify(message.blocks);
    expect(blocks).toContain("&lt;!channel&gt; &lt;@U0BOSS&gt;");
    expect(blocks).toContain("<@U0ANNA>: a payment.");
    const expired = buildFeedMessage(
      { ...invoice, state: "notpayed" },
      { teamId: "T1", isNew: false, event: "expired" },
    );
    expect(expired.text).toContain(": expired unpaid");
    expect(JSON.stringify(expired.blocks)).toContain(":alarm_clock: *Expired unpaid*");
  });

  it("the form opens filled with the feed as it is; without the method list it says the methods stay", () => {
    const modal = feedFormModal({
      channel: "C0SALES",
      isFeed: true,
      filter: { events: ["paid", "expired"], minRub: "10000", methods: ["BITCOIN"], tests: false },
      mentions: { users: ["U0ANNA"], payments: false, failures: true },
      methods: [
        { code: "BITCOIN", name: "Bitcoin" },
        { code: "TON", name: "Toncoin" },
      ],
      maxPeople: 10,
      origin: { t: "T1", c: "C0SALES" },
    });
    const json = JSON.stringify(modal);
    expect(modal.callback_id).toBe("kassa_feed_form");
    expect(JSON.parse(modal.private_metadata ?? "")).toEqual({ t: "T1", c: "C0SALES" });
    expect(json).toContain('"initial_value":"10000"');
    expect(json).toContain('"initial_users":["U0ANNA"]');
    expect(json).toMatch(/"initial_options":\[\{"text":\{"type":"plain_text","text":"Bitcoin \(BITCOIN\)"\}/);
    expect(json).toContain('"value":"exclude"}');
    const without = JSON.stringify(
      feedFormModal({
        channel: "C0NEW",
        isFeed: false,
        filter: { events: ["paid"] },
        mentions: null,
        methods: undefined,
        maxPeople: 10,
        origin: { t: "T1", c: "C0NEW" },
      }),
    );
    expect(without).toContain("methods chosen before stay");
    expect(without).not.toContain("multi_static_select");
  });
});
