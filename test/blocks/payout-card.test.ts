import { describe, expect, it } from "vitest";
import {
  balanceShort,
  cardKeyOf,
  payoutCardMessage,
  payoutEndNote,
  walletEnding,
} from "../../src/blocks/payout-card.js";
import { payoffMethodLabel } from "../../src/blocks/payout-forms.js";
import { plainOf, requestRefusalText, voteRefusalText } from "../../src/blocks/payout-replies.js";
import type { PayoutNotice } from "../../src/payouts/notice-model.js";
import type { PayoutRequest } from "../../src/payouts/request-model.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords } from "../support/english-words.js";

const REQUEST: PayoutRequest = {
  v: 1,
  id: "810000001_abc",
  registerKey: "T0SHOP~shop2",
  team: "T0SHOP",
  requester: "U0REQ",
  amount: "0.1",
  fee: "0.2",
  receives: "0.1",
  leavesBalance: "0.3",
  currency: "USDT",
  rubAmount: "30",
  method: "USDTTRC",
  wallet: "TXyz <!channel> `1234`",
  subtractFrom: "balance",
  reason: "Refund <@U0BOSS> *now*",
  reference: "",
  createdAt: "2026-11-26T10:00:00.000Z",
  expiresAt: "2026-11-26T11:00:00.000Z",
  needed: 2,
  votes: [{ by: "U0ANNA", at: "2026-11-26T10:01:00.000Z" }],
  status: "waiting",
};
const NOTICE: PayoutNotice = {
  v: 1,
  channel: "C0PAY",
  requester: "U0REQ",
  register: "shop2",
  several: true,
  lang: "en",
  balance: { value: "0.25", currency: "USDT" },
  today: { total: "30", cap: "10000" },
  told: [],
};

describe("a payout request's card", () => {
  it("shows exact figures with their currency, the register, approvals, and escapes what came from outside", () => {
    const message = payoutCardMessage(REQUEST, NOTICE, "approvers", "en");
    expectWithinBlockKitLimits(message);
    const text = JSON.stringify(message.blocks);
    for (const figure of [
      "0.1 USDT",
      "0.2 USDT",
      "0.3 USDT",
      "0.25 USDT",
      "30.00 RUB of 10,000.00 RUB",
      "Approvals: 1 of 2 (<@U0ANNA>)",
      "Payout request · shop2",
    ])
      expect(text).toContain(figure);
    expect(text).not.toContain("<!channel>");
    expect(text).not.toContain("<@U0BOSS>");
    expect(text).not.toContain("0.30000000000000004");
    expect(text).toContain("kassa_payout_approve");
    expect(text).not.toContain("kassa_payout_cancel");
  });

  it("warns when the balance is below what the payout takes from it, only in the same currency", () => {
    expect(balanceShort(REQUEST, NOTICE)).toBe(true);
    expect(JSON.stringify(payoutCardMessage(REQUEST, NOTICE, "approvers", "en").blocks)).toContain(
      "the service will refuse it when it is sent",
    );
    expect(balanceShort(REQUEST, { ...NOTICE, balance: { value: "0.3", currency: "USDT" } })).toBe(false);
    expect(balanceShort(REQUEST, { ...NOTICE, balance: { value: "0.01", currency: "RUB" } })).toBe(false);
    expect(balanceShort(REQUEST, { ...NOTICE, balance: null })).toBe(false);
  });

  it("gives the requester Cancel until it is sent, and nobody any button once it ended", () => {
    const copy = JSON.stringify(payoutCardMessage(REQUEST, NOTICE, "requester", "en").blocks);
    expect(copy).toContain("kassa_payout_cancel");
    expect(copy).not.toContain("kassa_payout_approve");
    const ended: PayoutRequest = {
      ...REQUEST,
      status: "ended",
      service: { state: "failed", message: "Card <blocked>", at: "2026-11-26T10:05:00.000Z" },
    };
    for (const reader of ["approvers", "requester"] as const)
      expect(JSON.stringify(payoutCardMessage(ended, NOTICE, reader, "en").blocks)).not.toContain(
        "kassa_payout_",
      );
    expect(payoutEndNote(ended, "en")).toContain("Card &lt;blocked&gt;");
    expect(payoutEndNote(REQUEST, "en")).toBeUndefined();
    expect(cardKeyOf(ended)).not.toBe(cardKeyOf(REQUEST));
  });

  it("is all Russian in Russian", () => {
    const message = payoutCardMessage(REQUEST, { ...NOTICE, lang: "ru" }, "approvers", "ru");
    expectWithinBlockKitLimits(message);
    expect(
      englishWords(message, ["USDT", "USDTTRC", "RUB", "TXyz", "channel", "Refund", "now", "shop2"]),
    ).toEqual([]);
  });
});

describe("what a payout's people are told", () => {
  it("takes the wallet's last four without spaces, and says methods with fees and limits", () => {
    expect(walletEnding("2200 7000 1234 5678")).toBe("5678");
    const label = payoffMethodLabel(
      {
        code: "CARDRUBP2P",
        name: "Card RUB",
        currency: "RUB",
        feePercent: "1.5",
        feeFixed: { value: "50", currency: "RUB" },
        extraFeePercent: null,
        extraFeeFixed: null,
        min: { value: "100", currency: "RUB" },
        max: null,
      },
      "en",
    );
    expect(label).toBe("Card RUB (CARDRUBP2P) · 1.5% + 50.00 RUB · 100–∞ RUB");
  });

  it("names who can, and who closed a request when, in plain text for a modal", () => {
    expect(requestRefusalText({ kind: "not_a_requester", requesters: [] }, "main", "en")).toContain(
      "the workspace's admins",
    );
    expect(
      requestRefusalText(
        { kind: "service_refused", reason: "limits", messages: ["Min <b>100</b>"] },
        "main",
        "en",
      ),
    ).toContain("Min &lt;b&gt;100&lt;/b&gt;");
    const closed = voteRefusalText(
      { kind: "closed", status: "rejected", by: "U0CARL", at: "2026-11-26T10:00:00.000Z" },
      "en",
    );
    expect(closed).toContain("Already rejected by <@U0CARL>");
    expect(plainOf(closed)).toBe("Already rejected by @U0CARL (2026-11-26 10:00:00 UTC).");
  });
});
