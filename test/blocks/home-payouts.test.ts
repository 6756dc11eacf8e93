/**
 * App Home's payouts part (issue 52): the rules of each register where payouts are on and its
 * trusted recipients (a few, the rest counted), within Block Kit's 100 blocks for a Home view, in
 * English and Russian; labels from outside escaped.
 */
import { describe, expect, it } from "vitest";
import { homeView } from "../../src/blocks/home.js";
import { HOME_RECIPIENTS_MAX, type HomePayouts, homePayoutBlocks } from "../../src/blocks/home-payouts.js";
import type { Recipient } from "../../src/payout-recipients/model.js";
import type { PayoutPolicy } from "../../src/payouts/policy.js";

const POLICY: PayoutPolicy = {
  v: 1,
  enabled: true,
  approvers: ["U0ANNA", "U0BORIS"],
  channel: "C0PAYOUTS",
  twoApproversFrom: "50000",
  requesterDaily: "100000",
  registerDaily: "300000",
  expiryMinutes: 90,
  methods: [],
  requesters: [],
  trustedOneBelow: "90000",
  approverLimits: { U0ANNA: "5500" },
  version: 3,
  changedBy: "U0ADMIN",
  changedAt: "2026-11-26T10:00:00.000Z",
};

function recipient(index: number, overrides: Partial<Recipient> = {}): Recipient {
  return {
    v: 1,
    id: `abcdefgh${String.fromCharCode(97 + (index % 26))}${String.fromCharCode(97 + Math.floor(index / 26))}`,
    registerKey: "T0TEAM",
    team: "T0TEAM",
    label: `Supplier ${index}`,
    method: "CARDRUBP2P",
    wallet: `22007000${String(index).padStart(8, "0")}`,
    note: "",
    added: { by: "U0REQ", at: "2026-11-01T10:00:00.000Z" },
    confirmations: [
      { by: "U0ANNA", at: "2026-11-01T11:00:00.000Z" },
      { by: "U0BORIS", at: "2026-11-01T12:00:00.000Z" },
    ],
    status: "trusted",
    trustedAt: "2026-11-01T12:00:00.000Z",
    ...overrides,
  };
}

const part = (register: string, recipients: HomePayouts["recipients"]): HomePayouts => ({
  register,
  policy: POLICY,
  recipients,
});
const textOf = (blocks: unknown) => JSON.stringify(blocks);

describe("App Home's payouts part", () => {
  it("gives the rules: channel, approvers, two-approver amount, trusted one-approver amount, limits", () => {
    const blocks = homePayoutBlocks([part("main", [recipient(1)])], {
      several: false,
      budget: 90,
      lang: "en",
    });
    expect(blocks[0]).toEqual({ type: "divider" });
    const text = textOf(blocks);
    expect(text).toContain("*Payouts*");
    expect(text).toContain("*Approval channel*: <#C0PAYOUTS>");
    expect(text).toContain("*Approvers*: <@U0ANNA>, <@U0BORIS>");
    expect(text).toContain("*Two approvers from*: 50,000.00 RUB");
    expect(text).toContain("90,000.00 RUB");
    expect(text).toContain("<@U0ANNA> up to 5,500.00 RUB");
    expect(text).toContain("*Trusted recipients* (1)");
    expect(text).toContain("*Supplier 1*: `CARDRUBP2P` `220…0001`");
    expect(text).toContain("not paid yet");
  });

  it("lists the first ones and counts the rest, pointing to /payout recipients; escapes labels", () => {
    const many = Array.from({ length: 25 }, (_, index) => recipient(index + 1));
    many[0] = recipient(1, {
      label: "<!channel> *Acme*",
      lastPaid: { at: "2026-11-20T10:00:00.000Z", payout: "p1" },
    });
    const text = textOf(homePayoutBlocks([part("main", many)], { several: false, budget: 90, lang: "en" }));
    expect(text).toContain("*Trusted recipients* (25)");
    expect(text).toContain(`…and ${25 - HOME_RECIPIENTS_MAX} more: \`/payout recipients\``);
    expect(text).toContain("Supplier 10");
    expect(text).not.toContain("Supplier 11*");
    expect(text).not.toContain("<!channel>");
    expect(text).toContain("last paid");
  });

  it("says when none is trusted yet, or when they could not be read; pending ones are not listed", () => {
    const pending = recipient(2, { status: "pending", confirmations: [] });
    const none = textOf(
      homePayoutBlocks([part("main", [pending])], { several: false, budget: 90, lang: "en" }),
    );
    expect(none).toContain("No trusted recipients yet");
    expect(none).not.toContain("Supplier 2");
    const unread = textOf(
      homePayoutBlocks([part("main", "unread")], { several: false, budget: 90, lang: "ru" }),
    );
    expect(unread).toContain("не удалось прочитать");
  });

  it("names each register where there are several, and counts those it has no room for", () => {
    const parts = Array.from({ length: 8 }, (_, index) => part(`shop${index}`, [recipient(index)]));
    const blocks = homePayoutBlocks(parts, { several: true, budget: 10, lang: "en" });
    expect(blocks.length).toBeLessThanOrEqual(10);
    const text = textOf(blocks);
    expect(text).toContain("*Payouts* · register shop0");
    expect(text).toContain("register shop3");
    expect(text).not.toContain("register shop4");
    expect(text).toContain("Payouts are on in 4 more registers");
    expect(homePayoutBlocks(parts, { several: true, budget: 3, lang: "en" })).toEqual([]);
    expect(homePayoutBlocks([], { several: true, budget: 90, lang: "en" })).toEqual([]);
  });

  it("keeps the whole Home view within 100 blocks, however many registers have payouts on", () => {
    const parts = Array.from({ length: 80 }, (_, index) => part(`shop${index}`, [recipient(index)]));
    const view = homeView(undefined, {
      defaultVersion: "v3",
      visibility: "private",
      canManage: true,
      lang: "ru",
      payouts: { several: true, parts },
    });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const text = textOf(view.blocks);
    expect(text).toContain("*Выплаты* · касса shop0");
    expect(text).toContain("Доверенные получатели");
    expect(text).toContain("Выплаты включены ещё в");
  });
});
