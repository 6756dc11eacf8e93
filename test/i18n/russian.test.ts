import { describe, expect, it } from "vitest";
import {
  renderInvoiceV2,
  renderInvoiceV3,
  renderMethodsV2,
  renderMethodsV3,
  sampleInvoices,
  sampleMethods,
} from "../../sandbox/fake-payments.js";
import { formatDecimal, formatMoney, slackDate } from "../../src/blocks/format.js";
import { buildInvoiceMessage } from "../../src/blocks/invoice.js";
import { buildPaymethodsMessage, paymethodsNoMatchMessage } from "../../src/blocks/paymethods.js";
import { changeNotice, type WatchStatus, watchStatusText, withWatchStatus } from "../../src/blocks/watch.js";
import { LANGS, parseLang } from "../../src/i18n/lang.js";
import { formatDecimalIn } from "../../src/i18n/numbers.js";
import { counted } from "../../src/i18n/plural.js";
import type { MethodFilter } from "../../src/payments/method-filter.js";
import type { Invoice } from "../../src/payments/model.js";
import { invoiceFromV2, invoiceFromV3, methodsFromV2, methodsFromV3 } from "../../src/payments/normalize.js";
import {
  invoiceV2Schema,
  invoiceV3Schema,
  methodListV2Schema,
  methodListV3Schema,
} from "../../src/payments/schemas.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";
import { englishWords, russianLetters } from "../support/english-words.js";

const NBSP = "\u00a0";
const NOW = new Date("2024-05-01T12:00:00Z");
const INVOICE_FORMS = { one: "счёт", few: "счёта", many: "счетов", other: "счёта" };

function invoicesOf(version: "v2" | "v3"): Invoice[] {
  return sampleInvoices(NOW).map((sample) => {
    const raw = JSON.parse(version === "v2" ? renderInvoiceV2(sample) : renderInvoiceV3(sample));
    return version === "v2"
      ? invoiceFromV2(invoiceV2Schema.parse(raw), "Europe/Moscow")
      : invoiceFromV3(invoiceV3Schema.parse(raw), "Europe/Moscow");
  });
}

describe("numbers as a Russian finance person writes them", () => {
  it("a decimal comma and no-break spaces between thousands, every digit kept (never a float)", () => {
    expect(formatDecimalIn("ru", "1500.50")).toBe(`1${NBSP}500,50`);
    expect(formatDecimalIn("ru", "0.0005")).toBe("0,0005");
    expect(formatDecimalIn("ru", "1234567.0000001")).toBe(`1${NBSP}234${NBSP}567,0000001`);
    expect(formatDecimalIn("ru", "-2500")).toBe(`-2${NBSP}500`);
    // Past a double's 15-17 digits: a float would have rounded these.
    expect(formatDecimalIn("ru", "12345678901234567890.123456789012345678")).toBe(
      `12${NBSP}345${NBSP}678${NBSP}901${NBSP}234${NBSP}567${NBSP}890,123456789012345678`,
    );
    expect(formatDecimalIn("ru", "0.1")).toBe("0,1");
    expect(formatMoney({ value: "1500.50", currency: "RUB" }, "ru")).toBe(`1${NBSP}500,50 RUB`);
    expect(formatMoney({ value: "0.0005", currency: "BTC" }, "ru")).toBe("0,0005 BTC");
    expect(formatMoney({ value: "1", currency: null }, "ru")).toBe("1 (валюта не ясна)");
  });

  it("English keeps its own: the same digits as before, grouped with commas", () => {
    for (const value of ["1500.50", "0.0005", "1234567.0000001", "-2500", "99999999999999999999.5"])
      expect(formatDecimalIn("en", value)).toBe(formatDecimal(value));
  });

  it("plural forms through Intl.PluralRules: 1 счёт, 2 счёта, 5 счетов, 11 счетов, 21 счёт", () => {
    const forms = [1, 2, 5, 11, 21, 22, 1500].map((n) => counted("ru", n, INVOICE_FORMS));
    expect(forms).toEqual([
      "1 счёт",
      "2 счёта",
      "5 счетов",
      "11 счетов",
      "21 счёт",
      "22 счёта",
      `1${NBSP}500 счетов`,
    ]);
    expect(counted("en", 1, { one: "invoice", other: "invoices" })).toBe("1 invoice");
    expect(counted("en", 2, { one: "invoice", other: "invoices" })).toBe("2 invoices");
  });

  it("a date token's fallback in Russian; Slack renders the token itself in the reader's language", () => {
    const time = { text: "2024-05-01 13:00:00", zone: "Europe/Moscow", epochSeconds: 1714557600 };
    expect(slackDate(time, "ru")).toBe(
      "<!date^1714557600^{date_short_pretty} {time}|1 мая 2024 г. в 13:00 Europe/Moscow>",
    );
    expect(slackDate(time, "en")).toContain("|2024-05-01 13:00:00 Europe/Moscow>");
  });

  it("reads a language as an admin would type it", () => {
    expect(["ru", "RU", "Russian", "русский", "en", "English", "fr"].map(parseLang)).toEqual([
      "ru",
      "ru",
      "ru",
      "ru",
      "en",
      "en",
      undefined,
    ]);
    expect(LANGS).toEqual(["en", "ru"]);
  });
});

describe("the invoice card in Russian", () => {
  const variants = [
    {},
    { visibility: "private" as const },
    { visibility: "private" as const, sharedBy: "U0SHARER" },
    { createdBy: "U0CREATOR", entered: { value: "1500", currency: "USD" } },
    { refreshedAt: NOW, originalState: "processing" },
    { now: new Date("2030-01-01T00:00:00Z") },
  ];

  it.each(["v2", "v3"] as const)(
    "every sample (%s), every option: no English word, within Block Kit's limits",
    (version) => {
      // The merchant's own description and extra are shown as written (data, not Kassa's words).
      for (const invoice of invoicesOf(version).map((i) => ({ ...i, description: null, extra: null }))) {
        for (const variant of variants) {
          const options = { now: NOW, teamId: "T0SANDBOX", ...variant };
          const russian = buildInvoiceMessage(invoice, { ...options, lang: "ru" });
          expectWithinBlockKitLimits(russian);
          // An unknown state is the service's own code, shown as it wrote it.
          expect(englishWords(russian, [invoice.state]), `${invoice.id} ${JSON.stringify(variant)}`).toEqual(
            [],
          );
          const english = buildInvoiceMessage(invoice, options);
          expectWithinBlockKitLimits(english);
          expect(russianLetters(english)).toEqual([]);
        }
      }
    },
  );

  it("says the service's terms, with amounts as Russians write them", () => {
    const paid = invoicesOf("v2").find((invoice) => invoice.state === "payed");
    if (!paid) throw new Error("no paid sample");
    const message = buildInvoiceMessage(paid, { now: NOW, teamId: "T0SANDBOX", lang: "ru" });
    const text = JSON.stringify(message.blocks);
    expect(message.blocks[0]).toMatchObject({ type: "header", text: { text: `Счёт ${paid.id}` } });
    expect(text).toContain("*Статус:* :white_check_mark: Оплачен");
    expect(text).toContain("*Сумма счёта*");
    expect(text).toContain("Обновить");
    expect(message.text.startsWith(`Счёт ${paid.id}: Оплачен, сумма `)).toBe(true);
    // Amounts keep their currency and are written the Russian way.
    const amount = paid.amounts.amount;
    if (amount) expect(message.text).toContain(formatMoney(amount, "ru"));
  });

  it("the checks can fail: an English word in a Russian card is found", () => {
    expect(englishWords({ text: "Счёт оплачен, Refresh here", blocks: [] })).toEqual(["Refresh", "here"]);
    expect(
      englishWords({ text: "`715308958_rPwTzvsvCm` 1 500 RUB <@U123> :white_check_mark: Kassa" }),
    ).toEqual([]);
    expect(russianLetters({ text: "Paid, сумма" })).toEqual(["сумма"]);
  });
});

describe("the live card in Russian", () => {
  const statuses: WatchStatus[] = [
    { kind: "watching", lastCheckedAt: NOW },
    { kind: "watching", lastCheckedAt: NOW, private: true },
    { kind: "not_watched", reason: "workspace_full", limit: 200 },
    { kind: "not_watched", reason: "invoice_full", limit: 5 },
    { kind: "not_watched", reason: "asker_full", limit: 50 },
    { kind: "not_watched", reason: "not_in_channel" },
    { kind: "not_watched", reason: "cannot_post" },
    { kind: "ended", reason: "final" },
    { kind: "ended", reason: "expired" },
    { kind: "ended", reason: "credentials" },
    { kind: "ended", reason: "max_hours", hours: 24 },
    { kind: "ended", reason: "stopped", by: "U0STOPPER" },
  ];

  it("every live line and the Stop button: Russian only, within Block Kit's limits", () => {
    const [invoice] = invoicesOf("v3").map((i) => ({ ...i, description: null, extra: null }));
    if (!invoice) throw new Error("no sample");
    for (const status of statuses) {
      const card = buildInvoiceMessage(invoice, { now: NOW, teamId: "T0SANDBOX", lang: "ru" });
      const live = withWatchStatus(card, status, { t: "T0SANDBOX", id: invoice.id }, "ru");
      expectWithinBlockKitLimits(live);
      expect(englishWords(live), status.kind).toEqual([]);
      expect(russianLetters({ text: watchStatusText(status) })).toEqual([]);
    }
    expect(watchStatusText({ kind: "not_watched", reason: "invoice_full", limit: 5 }, "ru")).toContain(
      "5 живых карточек",
    );
    expect(watchStatusText({ kind: "not_watched", reason: "asker_full", limit: 21 }, "ru")).toContain(
      "на 21 счёте",
    );
  });

  it("the thread note of a change", () => {
    const paid = invoicesOf("v2").find((invoice) => invoice.state === "payed");
    if (!paid) throw new Error("no paid sample");
    const note = changeNotice(paid, "notpayed", "payed", { user: "U0ASKER", lang: "ru" });
    expect(note).toMatch(/^<@U0ASKER> Счёт \S+: Не оплачен → Оплачен · /);
    expect(englishWords({ text: note })).toEqual([]);
    expect(changeNotice(paid, "notpayed", "expired", { lang: "ru" })).toContain("Не оплачен → Истёк");
  });
});

describe("/paymethods in Russian", () => {
  const catalog = (version: "v2" | "v3") => {
    const many = Array.from({ length: 3 }, (_, copy) =>
      sampleMethods().map((method) => ({ ...method, code: `${method.code}${copy || ""}` })),
    ).flat();
    const text = version === "v2" ? renderMethodsV2(many) : renderMethodsV3(many);
    return version === "v2"
      ? methodsFromV2(methodListV2Schema.parse(JSON.parse(text))).methods
      : methodsFromV3(methodListV3Schema.parse(JSON.parse(text))).methods;
  };

  it.each(["v2", "v3"] as const)(
    "every page, filter and note (%s): Russian only, within Block Kit's limits",
    (version) => {
      const methods = catalog(version);
      // Method names are the service's own (Bitcoin, Card, …), shown as it wrote them.
      // ... and the filter is the person's own text.
      const names = [...methods.flatMap((method) => method.name.split(/[\s()]+/)), "btc"];
      const filters: MethodFilter[] = [
        { kind: "all" },
        { kind: "enabled" },
        { kind: "disabled" },
        { kind: "text", text: "btc" },
      ];
      for (const filter of filters) {
        for (const page of [1, 2, 3]) {
          for (const visibility of ["channel", "private"] as const) {
            const options = {
              fetchedAt: NOW,
              visibility,
              leftOut: { payoutOnly: ["PAYOUT_A", "PAYOUT_B"], unreadable: 1 },
            };
            const russian = buildPaymethodsMessage(methods, { filter, page }, { ...options, lang: "ru" });
            if (!russian) continue;
            expectWithinBlockKitLimits(russian);
            expect(englishWords(russian, names), `${filter.kind} ${page} ${visibility}`).toEqual([]);
            const english = buildPaymethodsMessage(methods, { filter, page }, options);
            expect(russianLetters(english)).toEqual([]);
          }
        }
      }
      const first = buildPaymethodsMessage(
        methods,
        { filter: { kind: "all" }, page: 1 },
        { fetchedAt: NOW, lang: "ru" },
      );
      expect(JSON.stringify(first?.blocks)).toContain("комиссия");
      expect(englishWords(paymethodsNoMatchMessage("xyz", "ru"), ["xyz"])).toEqual([]);
    },
  );

  it("counts in Russian plurals", () => {
    const leftOut = (payoutOnly: number, unreadable: number) =>
      buildPaymethodsMessage(
        [],
        { filter: { kind: "all" }, page: 1 },
        {
          fetchedAt: NOW,
          lang: "ru",
          leftOut: { payoutOnly: Array.from({ length: payoutOnly }, (_, i) => `P${i}`), unreadable },
        },
      );
    expect(JSON.stringify(leftOut(1, 1))).toContain("Не показаны 1 метод только для выплат");
    expect(JSON.stringify(leftOut(2, 5))).toContain("5 методов не удалось прочитать");
    expect(JSON.stringify(leftOut(12, 2))).toContain("и ещё 2");
  });
});
