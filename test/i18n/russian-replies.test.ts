import { describe, expect, it } from "vitest";
import { renderInvoiceV3, sampleInvoices } from "../../sandbox/fake-payments.js";
import {
  type BalanceMessageInput,
  balanceHelpMessage,
  balanceNotAllowedMessage,
  balanceUsageMessage,
  buildBalanceMessage,
} from "../../src/blocks/balance.js";
import {
  busyMessage,
  internalErrorMessage,
  invoiceNotFoundMessage,
  notInstalledMessage,
  serviceErrorMessage,
  slowDownMessage,
  storageUnavailableMessage,
  unexpectedResponseMessage,
  unreachableMessage,
} from "../../src/blocks/replies.js";
import { buildInvoiceUnfurl } from "../../src/blocks/unfurl.js";
import type { Lang } from "../../src/i18n/lang.js";
import { UnexpectedResponseError, UnreachableError } from "../../src/payments/errors.js";
import { invoiceFromV3 } from "../../src/payments/normalize.js";
import { invoiceV3Schema } from "../../src/payments/schemas.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords, russianLetters } from "../support/english-words.js";

const NOW = new Date("2024-05-01T12:00:00Z");

/** Every error reply Kassa gives, in a language. */
function errorReplies(lang: Lang) {
  const long = ["Недостаточно средств ".repeat(40)];
  return {
    refused: serviceErrorMessage(["Счёт не найден"], lang),
    refusedLong: serviceErrorMessage(long, lang),
    notFound: invoiceNotFoundMessage("715308958_missing", ["Invoice not found"], lang),
    slowUser: slowDownMessage("user", 12, lang),
    slowTeam: slowDownMessage("team", 40, lang),
    notInstalled: notInstalledMessage(lang),
    timeout: unreachableMessage(new UnreachableError("timeout"), 10_000, "ref-1", lang),
    http502: unreachableMessage(new UnreachableError("http-status", 502), 10_000, "ref-2", lang),
    badAddress: unreachableMessage(
      new UnreachableError("network", undefined, "ENOTFOUND"),
      10_000,
      "ref-3",
      lang,
    ),
    busy: busyMessage(lang),
    unreadable: unexpectedResponseMessage(new UnexpectedResponseError("not-json", "<html>"), "ref-4", lang),
    storage: storageUnavailableMessage("ref-5", lang),
    internal: internalErrorMessage("ref-6", lang),
  };
}

describe("error replies in Russian", () => {
  it("every one: Russian only (the service's own words quoted as they are), within Block Kit's limits", () => {
    for (const [name, message] of Object.entries(errorReplies("ru"))) {
      expectWithinBlockKitLimits(message);
      // "Invoice not found" is the payment service's own message, quoted in the details line.
      expect(englishWords(message, ["Invoice", "not", "found", "PAYMENTS"]), name).toEqual([]);
    }
    for (const [name, message] of Object.entries(errorReplies("en"))) {
      expectWithinBlockKitLimits(message);
      // The service's own Russian words quoted in the refusal are its, not Kassa's.
      if (!name.startsWith("refused")) expect(russianLetters(message), name).toEqual([]);
    }
  });

  it("keeps the next step whole after a long refusal", () => {
    const text = JSON.stringify(errorReplies("ru").refusedLong.blocks);
    expect(text).toContain("Ничего не изменено. Проверьте запрос и попробуйте снова");
  });
});

describe("an unfurled payment link in Russian", () => {
  it("every sample: Russian only, within Block Kit's limits", () => {
    for (const sample of sampleInvoices(NOW)) {
      const invoice = invoiceFromV3(
        invoiceV3Schema.parse(JSON.parse(renderInvoiceV3(sample))),
        "Europe/Moscow",
      );
      const link = `https://pay.crystalpay.io/?i=${invoice.id}`;
      const russian = buildInvoiceUnfurl(invoice, { now: NOW, link, lang: "ru" });
      expectWithinBlockKitLimits({ text: russian.fallback, blocks: russian.blocks });
      expect(englishWords({ text: russian.fallback, blocks: russian.blocks }, [invoice.state])).toEqual([]);
      const english = buildInvoiceUnfurl(invoice, { now: NOW, link });
      expect(russianLetters({ text: english.fallback, blocks: english.blocks })).toEqual([]);
    }
  });
});

describe("/balance in Russian", () => {
  const balances = [
    { code: "BITCOIN", name: "Bitcoin", amount: { value: "0.0005", currency: "BTC" } },
    { code: "CARDRUBP2P", name: null, amount: { value: "1500.50", currency: "RUB" } },
    { code: "LTC", name: null, amount: { value: "0", currency: "LTC" } },
  ];
  const variants: Array<Omit<BalanceMessageInput, "fetchedAt">> = [
    { balances, unreadable: 0, rates: { prices: { BTC: "9000000" }, fetchedAt: NOW } },
    { balances, unreadable: 0, rates: null },
    { balances, unreadable: 2, rates: null },
    { balances, unreadable: 0, rates: { prices: { LTC: "7000" }, fetchedAt: NOW } },
    { balances: [], unreadable: 0, rates: null },
    {
      balances: Array.from({ length: 230 }, (_, i) => ({
        code: `M${i}`,
        name: null,
        amount: { value: "1", currency: "RUB" },
      })),
      unreadable: 0,
      rates: null,
    },
  ];

  it("every case: Russian only, within Block Kit's limits; amounts as Russians write them", () => {
    for (const variant of variants) {
      const russian = buildBalanceMessage({ ...variant, fetchedAt: NOW, lang: "ru" });
      expectWithinBlockKitLimits(russian);
      expect(englishWords(russian, ["Bitcoin"])).toEqual([]);
      expect(russianLetters(buildBalanceMessage({ ...variant, fetchedAt: NOW }))).toEqual([]);
    }
    const first = buildBalanceMessage({
      ...(variants[0] as (typeof variants)[0]),
      fetchedAt: NOW,
      lang: "ru",
    });
    expect(JSON.stringify(first.blocks)).toContain("1\u00a0500,50 RUB");
    expect(JSON.stringify(first.blocks)).toContain("0,0005 BTC");
    expect(JSON.stringify(first.blocks)).toContain("Итого ≈ 6\u00a0000,5 RUB");
    for (const message of [
      balanceNotAllowedMessage("ru"),
      balanceHelpMessage("admins", "ru"),
      balanceHelpMessage("everyone", "ru"),
      balanceUsageMessage("now", "ru"),
    ]) {
      expect(englishWords(message, ["now"])).toEqual([]);
    }
  });
});
