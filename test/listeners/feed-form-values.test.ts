import { describe, expect, it } from "vitest";
import { FEED_FIELDS } from "../../src/blocks/feed-form.js";
import { readFeedForm } from "../../src/listeners/views/feed-form-values.js";

const ticked = (...values: string[]) => ({
  value: { type: "checkboxes", selected_options: values.map((value) => ({ value })) },
});
const text = (value: string | null) => ({ value: { type: "plain_text_input", value } });
const people = (...users: string[]) => ({ value: { type: "multi_users_select", selected_users: users } });
const radio = (value: string) => ({ value: { type: "radio_buttons", selected_option: { value } } });

describe("readFeedForm", () => {
  it("reads what to post, the amount, methods, tests and mentions", () => {
    const read = readFeedForm(
      {
        [FEED_FIELDS.events]: ticked("expired", "paid"),
        [FEED_FIELDS.minRub]: text("10 000,50"),
        [FEED_FIELDS.methods]: ticked("BITCOIN"),
        [FEED_FIELDS.tests]: radio("exclude"),
        [FEED_FIELDS.people]: people("U0ANNA", "U0ANNA", "W0BORIS"),
        [FEED_FIELDS.when]: ticked("payments", "failures"),
        [FEED_FIELDS.mentionMin]: text("50000"),
      },
      undefined,
      "en",
    );
    expect(read).toEqual({
      ok: true,
      filter: { events: ["paid", "expired"], minRub: "10000.5", methods: ["BITCOIN"], tests: false },
      mentions: { users: ["U0ANNA", "W0BORIS"], payments: true, failures: true, minRub: "50000" },
    });
  });

  it("without people nobody is mentioned; without the methods field the methods stay", () => {
    const read = readFeedForm(
      { [FEED_FIELDS.events]: ticked("paid"), [FEED_FIELDS.when]: ticked("payments") },
      { events: ["paid"], methods: ["TON"] },
      "en",
    );
    expect(read).toEqual({ ok: true, filter: { events: ["paid"], methods: ["TON"] }, mentions: null });
  });

  it("says each mistake next to its field", () => {
    const read = readFeedForm(
      {
        [FEED_FIELDS.events]: ticked(),
        [FEED_FIELDS.minRub]: text("1e5"),
        [FEED_FIELDS.people]: people("U0ANNA"),
        [FEED_FIELDS.when]: ticked(),
        [FEED_FIELDS.mentionMin]: text("50000"),
      },
      undefined,
      "en",
    );
    expect(read.ok).toBe(false);
    expect(read.ok ? null : read.errors).toEqual({
      [FEED_FIELDS.events]: "Choose at least one thing to post.",
      [FEED_FIELDS.minRub]: "Write an amount in roubles, digits only: 10000 or 10000.50.",
      [FEED_FIELDS.when]: "Choose when to mention them: payments, failures or both.",
      [FEED_FIELDS.mentionMin]: "This amount is for payments: tick Payments above, or leave it empty.",
    });
  });

  it("values this form never gives (an unknown event, a forged user) make it out of date, not a guess", () => {
    expect(readFeedForm({ [FEED_FIELDS.events]: ticked("refunds") }, undefined, "en")).toEqual({
      ok: false,
      errors: null,
    });
    expect(
      readFeedForm(
        { [FEED_FIELDS.events]: ticked("paid"), [FEED_FIELDS.people]: people("<!channel>") },
        undefined,
        "en",
      ),
    ).toEqual({ ok: false, errors: null });
    expect(readFeedForm("not a form", undefined, "ru")).toEqual({ ok: false, errors: null });
  });
});
