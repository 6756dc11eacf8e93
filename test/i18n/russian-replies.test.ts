import { describe, expect, it } from "vitest";
import { renderInvoiceV3, sampleInvoices } from "../../sandbox/fake-payments.js";
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
