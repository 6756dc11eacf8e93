import { describe, expect, it } from "vitest";
import {
  renderInvoiceV3,
  renderMethodsV2,
  sampleInvoices,
  sampleMethods,
} from "../../sandbox/fake-payments.js";
import {
  credentialsKeyMessage,
  credentialsRefusedMessage,
  disconnectConfirmMessage,
  disconnectedMessage,
  type FeedLine,
  type InstantStatus,
  notAllowedMessage,
  notConnectedMessage,
  nothingToDisconnectMessage,
  statusMessage,
} from "../../src/blocks/admin.js";
import {
  type BalanceMessageInput,
  balanceHelpMessage,
  balanceNotAllowedMessage,
  balanceUsageMessage,
  buildBalanceMessage,
} from "../../src/blocks/balance.js";
import { checkingModal, connectedModal, connectModal } from "../../src/blocks/connect-modal.js";
import {
  buildFeedMessage,
  feedNotInChannelMessage,
  feedPausedText,
  feedResumedText,
  feedSubscribedMessage,
  feedUnsubscribedMessage,
  feedWelcomeMessage,
} from "../../src/blocks/feed.js";
import { describeFeed } from "../../src/blocks/feed-describe.js";
import { feedFormModal } from "../../src/blocks/feed-form.js";
import { homeView } from "../../src/blocks/home.js";
import {
  createdWithoutCardMessage,
  createFailedMessage,
  createInvoiceModal,
  createNotAllowedMessage,
  createNotSentMessage,
  createRefusedMessage,
  refusalText,
  validateCreateInput,
} from "../../src/blocks/invoice-create.js";
import { buildInvoiceList } from "../../src/blocks/invoice-list.js";
import { paymethodsHelpMessage, paymethodsUsageMessage } from "../../src/blocks/paymethods.js";
import {
  busyMessage,
  internalErrorMessage,
  invoiceHelpMessage,
  invoiceNotFoundMessage,
  invoiceUsageMessage,
  notInstalledMessage,
  serviceErrorMessage,
  slowDownMessage,
  storageUnavailableMessage,
  unexpectedResponseMessage,
  unreachableMessage,
} from "../../src/blocks/replies.js";
import { buildSummaryMessage } from "../../src/blocks/summary.js";
import { buildInvoiceUnfurl } from "../../src/blocks/unfurl.js";
import type { FeedFilter } from "../../src/feed/model.js";
import { MANAGED_ACTIONS } from "../../src/i18n/admin.js";
import { CONNECT_TEXT } from "../../src/i18n/connect.js";
import { USAGE_REASONS } from "../../src/i18n/help.js";
import type { Lang } from "../../src/i18n/lang.js";
import { UnexpectedResponseError, UnreachableError } from "../../src/payments/errors.js";
import { invoiceFromV3, methodsFromV2 } from "../../src/payments/normalize.js";
import { invoiceV3Schema, methodListV2Schema } from "../../src/payments/schemas.js";
import type { ConnectionInfo } from "../../src/store/credentials.js";
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
    expect(JSON.stringify(first.blocks)).toContain("Итого ≈ 6\u00a0000,50 RUB");
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

describe("/invoice list and /invoice summary in Russian", () => {
  it("every page and filter of the list: Russian only, within Block Kit's limits", () => {
    const time = { text: "2024-05-01 13:00:00", zone: "Europe/Moscow", epochSeconds: 1714557600 };
    const entries = ["notpayed", "payed", "processing", "refunded"].map((state, index) => ({
      id: `71530895${index}_rPwTzvsvCm`,
      state,
      method: null,
      createdAt: time,
      expiresAt: null,
      amount: index === 3 ? null : { value: "1500.5", currency: "RUB" },
      rub: null,
    }));
    for (const filter of ["all", "paid", "notpaid"] as const) {
      for (const page of [1, 2]) {
        for (const visibility of ["private", "channel"] as const) {
          for (const list of [entries, []]) {
            const input = {
              teamId: "T1",
              filter,
              page,
              entries: list,
              hasMore: true,
              fetchedAt: NOW,
              visibility,
            };
            const russian = buildInvoiceList({
              ...input,
              lang: "ru",
              sharedBy: visibility === "channel" ? "U1" : undefined,
            });
            expectWithinBlockKitLimits(russian);
            expect(englishWords(russian, ["refunded"])).toEqual([]);
            expect(russianLetters(buildInvoiceList(input))).toEqual([]);
          }
        }
      }
    }
  });

  it("every summary: Russian plurals and numbers, within Block Kit's limits", () => {
    const base = {
      zone: "Europe/Moscow",
      from: 1714510800,
      to: 1714597200,
      paidRub: "1234567.5",
      test: { created: 0, paid: 0 },
    };
    const cases = [
      { ...base, period: "today" as const, created: 1, paid: 1, unpriced: 0, partial: false, unreadable: 0 },
      {
        ...base,
        period: "yesterday" as const,
        created: 3,
        paid: 2,
        unpriced: 1,
        partial: true,
        unreadable: 1,
      },
      {
        ...base,
        period: "7d" as const,
        created: 25,
        paid: 21,
        unpriced: 5,
        partial: false,
        unreadable: 22,
        test: { created: 2, paid: 1 },
      },
    ];
    for (const summary of cases) {
      for (const audience of ["asker", "channel"] as const) {
        const russian = buildSummaryMessage(summary, NOW, audience, "ru");
        expectWithinBlockKitLimits(russian);
        expect(englishWords(russian)).toEqual([]);
        expect(russianLetters(buildSummaryMessage(summary, NOW, audience))).toEqual([]);
      }
    }
    const week = JSON.stringify(
      buildSummaryMessage(cases[2] as (typeof cases)[2], NOW, "asker", "ru").blocks,
    );
    expect(week).toContain("25 счетов");
    expect(week).toContain("21 счёт (84 %)");
    expect(week).toContain("1\u00a0234\u00a0567,50 RUB + 5 счетов без суммы в рублях");
    expect(
      JSON.stringify(buildSummaryMessage(cases[1] as (typeof cases)[1], NOW, "asker", "ru").blocks),
    ).toContain("2 счёта (66,7 %)");
  });
});

const FILTERED: FeedFilter = {
  events: ["paid", "failed", "expired"],
  minRub: "10000",
  methods: ["BITCOIN"],
  tests: false,
};
const MENTIONS = { users: ["U0ANNA", "U0BORIS"], payments: true, minRub: "50000.5", failures: true };
const MENTIONED_PAYMENT = { users: ["U0ANNA"], why: "payment" as const, minRub: "50000" };
const MENTIONED_FAILURE = { users: ["U0ANNA"], why: "failure" as const };

describe("the payment feed in Russian", () => {
  it("every message, note and reply: Russian only, within Block Kit's limits", () => {
    for (const sample of sampleInvoices(NOW)) {
      const invoice = {
        ...invoiceFromV3(invoiceV3Schema.parse(JSON.parse(renderInvoiceV3(sample))), "Europe/Moscow"),
        description: null,
      };
      for (const isNew of [true, false]) {
        for (const method of [undefined, "TEST"]) {
          const shown = { ...invoice, method: method ?? invoice.method };
          const russian = buildFeedMessage(shown, { teamId: "T1", isNew, lang: "ru" });
          expectWithinBlockKitLimits(russian);
          expect(englishWords(russian, [invoice.state])).toEqual([]);
          expect(russianLetters(buildFeedMessage(shown, { teamId: "T1", isNew }))).toEqual([]);
          for (const mention of [MENTIONED_PAYMENT, MENTIONED_FAILURE, null]) {
            const options = {
              teamId: "T1",
              isNew,
              event: mention?.why === "failure" ? ("expired" as const) : undefined,
              why: { filter: FILTERED, mention },
            };
            const filtered = buildFeedMessage(shown, { ...options, lang: "ru" });
            expectWithinBlockKitLimits(filtered);
            expect(englishWords(filtered, [invoice.state])).toEqual([]);
            expect(russianLetters(buildFeedMessage(shown, options))).toEqual([]);
          }
        }
      }
    }
    const described = [
      describeFeed({ filter: { events: ["paid"] } }, "ru"),
      describeFeed({ filter: { events: ["new", "paid", "failed", "wrongamount", "expired"] } }, "ru"),
      describeFeed({ filter: FILTERED, mentions: MENTIONS }, "ru"),
      describeFeed({ filter: FILTERED, mentions: { ...MENTIONS, minRub: null, failures: false } }, "ru"),
    ];
    for (const modal of [true, false].map((isFeed) =>
      feedFormModal({
        channel: "C1",
        isFeed,
        filter: FILTERED,
        mentions: isFeed ? MENTIONS : null,
        methods: isFeed ? [{ code: "BITCOIN", name: "Биткоин" }] : undefined,
        maxPeople: 10,
        origin: { t: "T1", c: "C1" },
        lang: "ru",
      }),
    )) {
      expect(modal.blocks.length).toBeLessThanOrEqual(100);
      expect(englishWords({ text: "", blocks: modal.blocks }, ["BITCOIN"])).toEqual([]);
    }
    const replies = [
      ...described.map((what) => feedSubscribedMessage(what, "added", "ru")),
      feedSubscribedMessage(described[1] ?? "", "changed", "ru"),
      feedSubscribedMessage(described[2] ?? "", "resumed", "ru"),
      feedWelcomeMessage(described[2] ?? "", "U1", { teamId: "T1", channel: "C1" }, "ru"),
      feedNotInChannelMessage("ru"),
      feedUnsubscribedMessage(true, "ru"),
      feedUnsubscribedMessage(false, "ru"),
      { text: feedPausedText("not_in_channel", "C1", "ru") },
      { text: feedPausedText("unreadable_history", "C1", "ru") },
      { text: feedResumedText("C1", "ru") },
    ];
    for (const reply of replies) expect(englishWords(reply)).toEqual([]);
  });
});

describe("help and usage in Russian", () => {
  it("every help text and every usage reason: Russian only (commands and their words as typed)", () => {
    const facts = [
      { visibility: "channel" as const, liveCards: true },
      { visibility: "private" as const, liveCards: true },
      { visibility: "private" as const },
    ];
    for (const fact of facts) {
      for (const message of [invoiceHelpMessage(fact, "ru"), paymethodsHelpMessage(fact, "ru")]) {
        expectWithinBlockKitLimits(message);
        expect(englishWords(message)).toEqual([]);
      }
      expect(russianLetters(invoiceHelpMessage(fact))).toEqual([]);
      expect(russianLetters(paymethodsHelpMessage(fact))).toEqual([]);
    }
    for (const reason of USAGE_REASONS) {
      for (const message of [
        invoiceUsageMessage(reason, "abc def", "ru"),
        paymethodsUsageMessage(reason, "x", "ru"),
      ]) {
        expectWithinBlockKitLimits(message);
        expect(englishWords(message, ["abc", "def", "x"]), reason).toEqual([]);
      }
      expect(russianLetters(invoiceUsageMessage(reason, "abc"))).toEqual([]);
    }
  });
});

describe("the connection, /invoice status and refusals in Russian", () => {
  const info: ConnectionInfo = {
    teamId: "T0TEAM",
    login: "shop_register",
    apiVersion: null,
    connectedBy: "U0ADMIN",
    connectedAt: "2026-11-22T10:00:00.000Z",
    hasSalt: true,
    otherKey: null,
  };
  it("every reply: Russian only, within Block Kit's limits", () => {
    const instants: InstantStatus[] = [
      { kind: "on", address: "https://kassa.example/callbacks/abc" },
      { kind: "no-salt" },
      { kind: "no-address" },
    ];
    const feeds: FeedLine[] = [
      { channel: "C1", filter: { events: ["paid"] }, digest: "09:00 Europe/Moscow" },
      { channel: "C2", filter: FILTERED, mentions: MENTIONS, paused: "not_in_channel" },
      { channel: "C3", filter: { events: ["paid"], minRub: "1" }, paused: "unreadable_history" },
    ];
    const messages = [];
    for (const canManage of [true, false]) {
      for (const instant of instants) {
        for (const connected of [info, { ...info, otherKey: "k" }, undefined]) {
          messages.push(
            statusMessage(connected as ConnectionInfo | undefined, {
              defaultVersion: "v2",
              visibility: canManage ? "private" : "channel",
              canManage,
              balanceVisibility: canManage ? "everyone" : "admins",
              invoiceCreators: canManage ? "admins" : "everyone",
              watched: canManage ? 0 : 12,
              instant,
              feeds: canManage ? feeds : [],
              teamId: "T1",
              lang: "ru",
            }),
          );
        }
      }
      messages.push(
        notConnectedMessage(canManage, "ru"),
        credentialsKeyMessage(canManage, "ru"),
        credentialsRefusedMessage(["Invalid auth credentials"], canManage, "ru"),
      );
    }
    for (const action of MANAGED_ACTIONS) messages.push(notAllowedMessage(action, "ru"));
    messages.push(
      disconnectConfirmMessage(info, "T0TEAM", "ru"),
      disconnectedMessage("U0ADMIN", "ru"),
      nothingToDisconnectMessage("ru"),
    );
    for (const message of messages) {
      expectWithinBlockKitLimits(message);
      // "Invalid auth credentials" is the payment service's own answer, quoted.
      expect(englishWords(message, ["Invalid", "auth", "credentials"])).toEqual([]);
    }
  });
});

describe("App Home in Russian", () => {
  it("for admins and others, connected or not: Russian only, within Block Kit's limits", () => {
    const info: ConnectionInfo = {
      teamId: "T0TEAM",
      login: "shop_register",
      apiVersion: "v3",
      connectedBy: "U0ADMIN",
      connectedAt: "2026-11-22T10:00:00.000Z",
      hasSalt: false,
      otherKey: "k",
    };
    for (const connected of [info, undefined]) {
      for (const canManage of [true, false]) {
        for (const visibility of ["private", "channel"] as const) {
          const options = {
            defaultVersion: "v2" as const,
            visibility,
            canManage,
            instant: { kind: "no-salt" as const },
          };
          const home = homeView(connected, { ...options, lang: "ru" });
          // Checked as a message: the same block limits (a view has no notification text).
          expectWithinBlockKitLimits({ text: "App Home", blocks: home.blocks });
          expect(englishWords(home)).toEqual([]);
          expect(russianLetters(homeView(connected, options))).toEqual([]);
        }
      }
    }
  });
});

describe("the connect form in Russian", () => {
  it("the form and its notices: Russian only; titles and buttons fit Slack's 24 characters uncut", () => {
    const info: ConnectionInfo = {
      teamId: "T0TEAM",
      login: "shop_register",
      apiVersion: "v2",
      connectedBy: "U0ADMIN",
      connectedAt: "2026-11-22T10:00:00.000Z",
      hasSalt: true,
      otherKey: null,
    };
    const views = [
      connectModal({
        hasSecret: false,
        apiVersion: "v2",
        visibility: "channel",
        privateMetadata: "{}",
        lang: "ru",
      }),
      connectModal({
        login: "shop_register",
        hasSecret: true,
        hasSalt: true,
        apiVersion: "v3",
        visibility: "private",
        privateMetadata: "{}",
        lang: "ru",
      }),
      checkingModal("ru"),
      connectedModal(info, 1, "v2", "ru"),
      connectedModal(info, 22, "v2", "ru"),
    ];
    for (const view of views) {
      // The language choice names each language in itself: English, Русский.
      expect(englishWords(view, ["English"])).toEqual([]);
      for (const text of [view.title, view.submit, view.close].flatMap((part) => (part ? [part.text] : []))) {
        expect(text.length).toBeLessThanOrEqual(24);
      }
    }
    // Written to fit, not cut by the modal helper.
    for (const lang of ["en", "ru"] as const) {
      const t = CONNECT_TEXT[lang];
      for (const text of [t.title, t.submit, t.cancel, t.close, t.checkingTitle, t.connectedTitle])
        expect(text.length, text).toBeLessThanOrEqual(24);
    }
    expect(JSON.stringify(views[4])).toContain("22 метода оплаты");
    const english = connectModal({
      hasSecret: false,
      apiVersion: "v2",
      visibility: "channel",
      privateMetadata: "{}",
    });
    // Only the name of the other language, in itself.
    expect(russianLetters(english)).toEqual(["Русский"]);
  });
});

describe("/invoice new in Russian", () => {
  it("the form, its field errors and every reply: Russian only; titles fit uncut", () => {
    const { methods } = methodsFromV2(methodListV2Schema.parse(JSON.parse(renderMethodsV2(sampleMethods()))));
    const view = createInvoiceModal({
      amount: "1500",
      currency: "usd",
      methods,
      origin: { t: "T1", c: "C1" },
      lang: "ru",
    });
    // Method names are the service's own.
    expect(
      englishWords(
        view,
        methods.flatMap((method) => method.name.split(/[\s()]+/)),
      ),
    ).toEqual([]);
    for (const text of [view.title.text, view.submit?.text ?? "", view.close?.text ?? ""])
      expect(text.length).toBeLessThanOrEqual(24);
    expect(view.title.text).toBe("Новый счёт");
    for (const input of [
      { amount: "", lifetime: "0" },
      { amount: "1,5", currency: "XYZ", lifetime: "99999" },
      { amount: "0", lifetime: "60" },
    ]) {
      const checked = validateCreateInput(input, "ru");
      expect(checked.ok).toBe(false);
      if (!checked.ok)
        for (const error of Object.values(checked.errors)) expect(englishWords({ text: error })).toEqual([]);
    }
    const replies = [
      createNotAllowedMessage("ru"),
      createRefusedMessage(["Сумма слишком мала"], "1500", "RUB", "ru"),
      createNotSentMessage("1500", "RUB", "not_connected", "ru"),
      createNotSentMessage("1500", "RUB", "busy", "ru"),
      createFailedMessage("1500", "RUB", "no_answer", "ref-1", "ru"),
      createFailedMessage("1500", "RUB", "internal", "ref-2", "ru"),
      createdWithoutCardMessage(
        "715308958_rPwTzvsvCm",
        "https://pay.crystalpay.io/?i=715308958_rPwTzvsvCm",
        "U1",
        "ru",
      ),
      { text: refusalText(["Сумма слишком мала"], "ru") },
    ];
    for (const reply of replies) expect(englishWords(reply)).toEqual([]);
  });
});
