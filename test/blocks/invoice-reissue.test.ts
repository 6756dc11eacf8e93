import { describe, expect, it } from "vitest";
import { linkButton } from "../../src/blocks/button-values.js";
import { LINK_ACTIONS } from "../../src/blocks/ids.js";
import { buildInvoiceMessage } from "../../src/blocks/invoice.js";
import type { SlackMessage } from "../../src/blocks/message.js";
import { reissueEarlyMessage } from "../../src/blocks/reissue.js";
import type { Invoice } from "../../src/payments/model.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords } from "../support/english-words.js";

// The card's Re-issue button and "Replaced by" line (issue 51), and the warning before expiry.

const NOW = new Date("2026-11-28T12:00:00Z");
const at = (iso: string) => ({ text: iso, zone: "Europe/Moscow", epochSeconds: Date.parse(iso) / 1000 });

function invoice(patch: Partial<Invoice> = {}): Invoice {
  return {
    id: "715300001_AbCdEfGhIj",
    url: "https://pay.crystalpay.io/?i=715300001_AbCdEfGhIj",
    state: "notpayed",
    type: "purchase",
    method: null,
    requiredMethod: null,
    currency: "RUB",
    currencyConflict: null,
    amounts: { amount: { value: "1500", currency: "RUB" } },
    commissions: {},
    subtractFrom: null,
    description: "Annual plan",
    extra: "PO-7 kassa:abcdefgh23",
    redirectUrl: null,
    callbackUrl: null,
    createdAt: at("2026-11-28T09:00:00Z"),
    expiredAt: at("2026-11-28T11:00:00Z"),
    finalAt: null,
    apiVersion: "v3",
    ...patch,
  };
}

const reissueButtons = (message: SlackMessage) =>
  message.blocks.flatMap((block) =>
    block.type === "actions" ? block.elements.filter((e) => e.action_id === LINK_ACTIONS.reissue) : [],
  );

function card(given: Invoice, options: Partial<Parameters<typeof buildInvoiceMessage>[1]> = {}) {
  const message = buildInvoiceMessage(given, { now: NOW, teamId: "T0SANDBOX", ...options });
  expectWithinBlockKitLimits(message);
  return message;
}

describe("Re-issue on the invoice card", () => {
  it("is offered on an expired unpaid invoice Kassa made, carrying its ref and register", () => {
    const [button] = reissueButtons(card(invoice(), { register: "shop2" }));
    expect(button).toBeDefined();
    const value = linkButton.schema.parse(JSON.parse((button as { value: string }).value));
    expect(value).toEqual({ t: "T0SANDBOX", k: "abcdefgh23", r: "shop2" });
  });

  it("is not offered while the link works, once paid, without Kassa's marker, or once re-issued", () => {
    expect(reissueButtons(card(invoice({ expiredAt: at("2026-11-28T13:00:00Z") })))).toHaveLength(0);
    expect(reissueButtons(card(invoice({ state: "payed" })))).toHaveLength(0);
    expect(reissueButtons(card(invoice({ extra: "PO-7" })))).toHaveLength(0);
    const replaced = card(invoice(), { replacedBy: { invoiceId: "715300002_Zz", user: "U0OTHER" } });
    expect(reissueButtons(replaced)).toHaveLength(0);
    expect(JSON.stringify(replaced.blocks)).toContain("*Replaced by* `715300002_Zz` (by <@U0OTHER>)");
  });

  it("speaks Russian on a Russian card, and in the warning", () => {
    const replaced = card(invoice(), {
      lang: "ru",
      replacedBy: { invoiceId: "715300002_Zz", user: "U0OTHER" },
    });
    expect(JSON.stringify(replaced.blocks)).toContain("*Заменён счётом* `715300002_Zz`");
    expect(englishWords(replaced, ["Annual", "plan"])).toEqual([]);
    const link = { t: "T0SANDBOX", k: "abcdefgh23" };
    const warning = reissueEarlyMessage(
      { invoiceId: "715300001_AbCdEfGhIj", expiresAtSeconds: 1, link },
      "ru",
    );
    expect(JSON.stringify(warning.blocks)).toContain("Всё равно перевыпустить");
    expect(englishWords(warning)).toEqual([]);
    expectWithinBlockKitLimits(warning);
    const english = reissueEarlyMessage(
      { invoiceId: "715300001_AbCdEfGhIj", expiresAtSeconds: 1, link },
      "en",
    );
    const [anyway] = reissueButtons(english);
    expect(JSON.parse((anyway as { value: string }).value)).toEqual({ ...link, e: 1 });
  });
});
