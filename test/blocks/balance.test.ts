import { describe, expect, it } from "vitest";
import {
  balanceHelpMessage,
  balanceNotAllowedMessage,
  balanceUsageMessage,
  buildBalanceMessage,
} from "../../src/blocks/balance.js";
import type { SlackMessage } from "../../src/blocks/message.js";
import type { Balance } from "../../src/payments/model.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

const FETCHED = new Date("2026-11-23T10:00:00Z");
const RATES_AT = new Date("2026-11-23T10:00:02Z");

const balance = (code: string, value: string, currency: string, name: string | null = null): Balance => ({
  code,
  name,
  amount: { value, currency },
});

const SAMPLE: Balance[] = [
  balance("CRYSTALPAY", "0", "RUB", "CrystalPAY P2P"),
  balance("CARDRUBP2P", "12345.67", "RUB", "Card RUB P2P"),
  balance("BITCOIN", "0.00005", "BTC", "Bitcoin"),
  balance("TRON", "0", "TRX", "Tron"),
  balance("BTCCRYPTOBOT", "0.0000001", "BTC", "BTC (CryptoBot)"),
];

const all = (message: SlackMessage) => JSON.stringify(message);
const sectionTexts = (message: SlackMessage) =>
  message.blocks.flatMap((block) => (block.type === "section" && block.text ? [block.text.text] : []));

describe("buildBalanceMessage", () => {
  it("lists non-zero balances first, exact, each with its currency, and names the empty ones", () => {
    const message = buildBalanceMessage({
      balances: SAMPLE,
      unreadable: 0,
      fetchedAt: FETCHED,
      rates: { prices: { BTC: "8123456.78" }, fetchedAt: RATES_AT },
    });
    expect(message.response_type).toBe("ephemeral");
    const lines = sectionTexts(message)[0]?.split("\n") ?? [];
    expect(lines).toEqual([
      "• *Card RUB P2P* `CARDRUBP2P`: *12,345.67 RUB*",
      "• *Bitcoin* `BITCOIN`: *0.00005 BTC*",
      "• *BTC (CryptoBot)* `BTCCRYPTOBOT`: *0.0000001 BTC*",
    ]);
    expect(all(message)).toContain("Empty (0): `CRYSTALPAY`, `TRON`.");
    expect(all(message)).not.toMatch(/\de-\d/);
    expectWithinBlockKitLimits(message);
  });

  it("shows the approximate rouble total, marked as such, with the rates' time", () => {
    const message = buildBalanceMessage({
      balances: SAMPLE,
      unreadable: 0,
      fetchedAt: FETCHED,
      rates: { prices: { BTC: "8123456.78" }, fetchedAt: RATES_AT },
    });
    // 12345.67 + 0.0000501 × 8123456.78 = 12345.67 + 406.9851846... = 12752.66 (to kopecks)
    expect(sectionTexts(message)).toContain("*Total ≈ 12,752.66 RUB* _(approximate)_");
    expect(all(message)).toContain(`rouble rate read <!date^${RATES_AT.getTime() / 1000}^`);
    expect(message.text).toContain("total about 12,752.66 RUB (approximate)");
  });

  it("shows an exact total without rates when every non-zero balance is in roubles", () => {
    const message = buildBalanceMessage({
      balances: [balance("A", "0.1", "RUB"), balance("B", "0.2", "RUB"), balance("C", "0", "BTC")],
      unreadable: 0,
      fetchedAt: FETCHED,
      rates: null,
    });
    expect(sectionTexts(message)).toContain("*Total: 0.30 RUB*");
    expect(all(message)).not.toContain("approximate");
    expect(sectionTexts(message)[0]).toBe("• `A`: *0.10 RUB*\n• `B`: *0.20 RUB*");
  });

  it("drops only the total when the rates could not be read", () => {
    const message = buildBalanceMessage({ balances: SAMPLE, unreadable: 0, fetchedAt: FETCHED, rates: null });
    expect(all(message)).toContain("*0.00005 BTC*");
    expect(all(message)).toContain("No total in RUB right now: the exchange rates could not be read");
    expect(all(message)).not.toContain("Total");
  });

  it("gives no total when a currency has no rate, or an entry could not be read", () => {
    const unpriced = buildBalanceMessage({
      balances: [...SAMPLE, balance("DOGECOIN", "5", "DOGE")],
      unreadable: 0,
      fetchedAt: FETCHED,
      rates: { prices: { BTC: "1" }, fetchedAt: RATES_AT },
    });
    expect(all(unpriced)).toContain("No total in RUB: the payment service gave no rate for DOGE.");
    const unreadable = buildBalanceMessage({
      balances: SAMPLE,
      unreadable: 1,
      fetchedAt: FETCHED,
      rates: { prices: { BTC: "1" }, fetchedAt: RATES_AT },
    });
    expect(all(unreadable)).toContain(
      "No total in RUB: 1 balance in the payment service's answer could not be read",
    );
    expect(all(unreadable)).not.toContain("Total");
  });

  it("shows no total, in plain words, when a rate looks wrong; the balances still show", () => {
    for (const [lang, words] of [
      ["en", "No total in RUB: the payment service's exchange rate for BTC looks wrong"],
      ["ru", "Итога в рублях нет: курс платёжного сервиса для BTC выглядит неверным"],
    ] as const) {
      const message = buildBalanceMessage({
        balances: SAMPLE,
        unreadable: 0,
        fetchedAt: FETCHED,
        rates: { prices: { BTC: "0.0001" }, fetchedAt: RATES_AT },
        lang,
      });
      expect(all(message)).toContain(words);
      expect(all(message)).toMatch(/`BITCOIN`: \*0[.,]00005 BTC\*/);
      expect(all(message)).not.toMatch(/\*(Total|Итого)/);
    }
  });

  it("says so when every balance is 0 (v3 `items: []`)", () => {
    const message = buildBalanceMessage({ balances: [], unreadable: 0, fetchedAt: FETCHED, rates: null });
    expect(sectionTexts(message)).toEqual(["Every balance is 0: there is no money on the cash register."]);
    expect(message.text).toBe("Cash register balance: every balance is 0");
  });

  it("escapes names and codes from the service", () => {
    const message = buildBalanceMessage({
      balances: [balance("X`<!channel>", "1", "RUB", "<!here> *bold* <https://evil.example|click>")],
      unreadable: 0,
      fetchedAt: FETCHED,
      rates: null,
    });
    expect(all(message)).not.toMatch(/<!here>|<!channel>|<https:/);
    expect(all(message)).toContain("&lt;!here&gt;");
  });

  it("stays within Block Kit limits with hundreds of balances", () => {
    const many = Array.from({ length: 400 }, (_, index) =>
      balance(
        `METHOD${index}`,
        index % 4 === 0 ? "0" : `${index}.123456789`,
        "RUB",
        `Method ${index} ${"x".repeat(60)}`,
      ),
    );
    const message = buildBalanceMessage({ balances: many, unreadable: 0, fetchedAt: FETCHED, rates: null });
    expectWithinBlockKitLimits(message);
    expect(all(message)).toContain("…and 100 more non-zero balances.");
  });
});

describe("balance replies", () => {
  it("refuses politely, naming who can see the balance and how an admin can open it up", () => {
    const message = balanceNotAllowedMessage();
    expect(message.response_type).toBe("ephemeral");
    expect(all(message)).toContain("workspace admins and owners, the person who installed Kassa");
    expect(all(message)).toContain("Who may see the balance");
    expectWithinBlockKitLimits(message);
    // The tab as Slack's Russian interface names it.
    expect(all(balanceNotAllowedMessage("ru"))).toContain("вкладка «Главная» приложения Kassa");
  });

  it("explains the command and who may use it", () => {
    expect(all(balanceHelpMessage("admins"))).toContain("unless an admin lets everyone");
    expect(all(balanceHelpMessage("everyone"))).toContain("Everyone in this workspace may use it");
    expect(all(balanceUsageMessage("<!channel> please"))).toContain("`&lt;!channel&gt; please`");
  });
});
