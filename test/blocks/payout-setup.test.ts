/**
 * The payout setup form, the announcement of a change and /payout's help, in English and Russian:
 * what they show, Block Kit's limits, names from outside escaped; and the form's values read back.
 */
import { describe, expect, it } from "vitest";
import {
  noSecret2Message,
  PAYOUT_FIELDS,
  payoutHelpMessage,
  payoutSetupModal,
  policyAnnouncement,
  policySavedNote,
} from "../../src/blocks/payout-setup.js";
import type { Lang } from "../../src/i18n/lang.js";
import { readPayoutSetup } from "../../src/listeners/views/payout-setup-values.js";
import type { PayoutPolicy } from "../../src/payouts/policy.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords, russianLetters } from "../support/english-words.js";

const POLICY: PayoutPolicy = {
  v: 1,
  enabled: true,
  approvers: ["U0ANNA", "U0BORIS"],
  channel: "C0PAYOUTS",
  twoApproversFrom: "50000",
  requesterDaily: "100000",
  registerDaily: "300000.5",
  expiryMinutes: 90,
  methods: ["CARDRUBP2P"],
  requesters: [],
  version: 3,
  changedBy: "U0ADMIN",
  changedAt: "2026-11-26T10:00:00.000Z",
};
const ORIGIN = { t: "T0TEAM", r: "main", v: 3, c: "C0ASKED" };
const METHODS = [
  { code: "CARDRUBP2P", name: "Card RUB" },
  { code: "BITCOIN", name: "Bitcoin" },
];

function messagesIn(lang: Lang) {
  return [
    policyAnnouncement({
      by: "U0ADMIN",
      register: "main",
      policy: POLICY,
      before: { ...POLICY, approvers: ["U0ANNA", "U0CARL"], enabled: false, version: 2 },
      changed: ["enabled", "approvers"],
      lang,
    }),
    policySavedNote("main", POLICY, true, lang),
    payoutHelpMessage("main", POLICY, lang),
    payoutHelpMessage("main", undefined, lang),
    noSecret2Message("main", "/invoice connect", lang),
  ];
}

describe("payout setup blocks", () => {
  it("fills the form with the policy: people, channel, amounts, the wait, the methods chosen", () => {
    const view = JSON.stringify(
      payoutSetupModal({ register: "main", policy: POLICY, methods: METHODS, origin: ORIGIN }),
    );
    expect(view).toContain('"initial_users":["U0ANNA","U0BORIS"]');
    expect(view).toContain('"initial_conversation":"C0PAYOUTS"');
    expect(view).toContain('"initial_value":"300000.5"');
    expect(view).toContain('"initial_value":"1h30m"');
    expect(view).toContain("multi_static_select");
    expect(view).toContain(
      '"initial_options":[{"text":{"type":"plain_text","text":"Card RUB (CARDRUBP2P)"},"value":"CARDRUBP2P"}]',
    );
    expect(JSON.parse(JSON.parse(view).private_metadata)).toEqual(ORIGIN);
  });

  it("takes method codes as text where the register lists none, keeping those allowed", () => {
    for (const methods of ["unlisted", undefined] as const) {
      const view = payoutSetupModal({ register: "main", policy: POLICY, methods, origin: ORIGIN });
      const field = view.blocks.find((block) => block.block_id === PAYOUT_FIELDS.methods);
      expect(field).toMatchObject({ element: { type: "plain_text_input", initial_value: "CARDRUBP2P" } });
    }
  });

  it("a new policy's form: nobody chosen, 24 hours, payouts on", () => {
    const view = JSON.stringify(
      payoutSetupModal({ register: "shop2", policy: undefined, methods: METHODS, origin: ORIGIN }),
    );
    expect(view).not.toContain("initial_users");
    expect(view).toContain('"initial_value":"24h"');
    expect(view).toContain(
      '"initial_options":[{"text":{"type":"plain_text","text":"On: the people above may request payouts"},"value":"on"}]',
    );
  });

  it("announces each changed field before → after, with amounts as the language writes them", () => {
    const [announcement] = messagesIn("en");
    const text = JSON.stringify(announcement);
    expect(text).toContain("<@U0ADMIN> changed the payout policy of cash register *main* (version 3)");
    expect(text).toContain("*Payouts*: off → on");
    expect(text).toContain("*Approvers*: <@U0ANNA>, <@U0CARL> → <@U0ANNA>, <@U0BORIS>");
    expect(JSON.stringify(messagesIn("ru")[0])).toContain("*Выплаты*: выключены → включены");
    const amounts = (lang: Lang) =>
      JSON.stringify(
        policyAnnouncement({
          by: "cli",
          register: "main",
          policy: POLICY,
          before: undefined,
          changed: ["registerDaily"],
          lang,
        }),
      );
    expect(amounts("en")).toContain("*Daily cap for the register*: 300,000.50 RUB");
    expect(amounts("ru")).toContain("*Дневной лимит кассы*: 300\u00a0000,50 RUB");
  });

  it("escapes a saver's name that is not a Slack id", () => {
    const text = JSON.stringify(
      policyAnnouncement({
        by: "<!channel> cli",
        register: "main",
        policy: POLICY,
        before: undefined,
        changed: ["channel"],
        lang: "en",
      }),
    );
    expect(text).not.toContain("<!channel>");
    expect(text).toContain("&lt;!channel&gt; cli");
  });

  it.each(["en", "ru"] as const)("keeps Block Kit's limits and one language (%s)", (lang) => {
    for (const message of messagesIn(lang)) {
      expectWithinBlockKitLimits(message);
      if (lang === "ru") expect(englishWords(message, ["main"])).toEqual([]);
      else expect(russianLetters(message)).toEqual([]);
    }
    const modal = payoutSetupModal({
      register: "main",
      policy: POLICY,
      methods: METHODS,
      origin: ORIGIN,
      lang,
    });
    if (lang === "ru") expect(englishWords(modal, ["main", "Card", "RUB"])).toEqual([]);
    else expect(russianLetters(modal)).toEqual([]);
  });
});

describe("reading the setup form", () => {
  const users = (...ids: string[]) => ({ value: { type: "multi_users_select", selected_users: ids } });
  const text = (value: string) => ({ value: { type: "plain_text_input", value } });
  const BASE = {
    [PAYOUT_FIELDS.approvers]: users("U0ANNA", "U0BORIS"),
    [PAYOUT_FIELDS.channel]: { value: { type: "conversations_select", selected_conversation: "C0PAYOUTS" } },
    [PAYOUT_FIELDS.twoApproversFrom]: text("50 000"),
    [PAYOUT_FIELDS.requesterDaily]: text("100000 ₽"),
    [PAYOUT_FIELDS.registerDaily]: text("lots"),
    [PAYOUT_FIELDS.expiryMinutes]: text("30м"),
  };

  it("reads people, the channel, amounts as exact text, the wait in minutes, payouts off unless ticked", () => {
    expect(readPayoutSetup(BASE)).toEqual({
      enabled: false,
      approvers: ["U0ANNA", "U0BORIS"],
      channel: "C0PAYOUTS",
      twoApproversFrom: "50000",
      requesterDaily: "100000",
      registerDaily: "invalid",
      expiryMinutes: 30,
      methods: [],
      requesters: [],
      // Issue 52's rules: none written (an empty row of limits for each the form can show).
      trustedOneBelow: null,
      approverLimits: Array.from({ length: 10 }, () => ({ people: [], upTo: null })),
    });
  });

  it("reads methods from the multi-select, or as codes written as text", () => {
    const chosen = {
      value: {
        type: "multi_static_select",
        selected_options: [{ value: "BITCOIN" }, { value: "CARDRUBP2P" }],
      },
    };
    expect(readPayoutSetup({ ...BASE, [PAYOUT_FIELDS.methods]: chosen })?.methods).toEqual([
      "BITCOIN",
      "CARDRUBP2P",
    ]);
    expect(
      readPayoutSetup({ ...BASE, [PAYOUT_FIELDS.methods]: text("BITCOIN, CARDRUBP2P;LTC") })?.methods,
    ).toEqual(["BITCOIN", "CARDRUBP2P", "LTC"]);
  });

  it("refuses values that are not this form's", () => {
    expect(readPayoutSetup({})).toBeUndefined();
    expect(
      readPayoutSetup({ ...BASE, [PAYOUT_FIELDS.approvers]: { value: { selected_users: "U0ANNA" } } }),
    ).toBeUndefined();
  });
});
