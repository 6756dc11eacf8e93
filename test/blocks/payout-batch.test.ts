import { describe, expect, it } from "vitest";
import type { RowRequests } from "../../src/blocks/payout-batch.js";
import { batchCardMessage } from "../../src/blocks/payout-batch-card.js";
import { methodTotals } from "../../src/payout-batches/checks.js";
import { type Batch, type BatchRow, batchSchema, batchTotal } from "../../src/payout-batches/model.js";
import { type PayoutRequest, payoutRequestSchema } from "../../src/payouts/request-model.js";
import { expectWithinBlockKitLimits } from "../support/block-kit-limits.js";

const AT = "2026-11-29T10:00:00.000Z";

function row(index: number): BatchRow {
  const refused = index % 10 === 0;
  return {
    row: index,
    line: index + 1,
    label: `${"Поставщик & <Partner> ".repeat(3)}${index}`.slice(0, 80),
    method: "CARDRUBP2P",
    wallet: `22007000${String(index).padStart(8, "0")}`.repeat(3),
    amount: `${index}000.5`,
    feeFrom: index % 2 === 0 ? "amount" : "balance",
    reference: `*INV* <@U123> ${"x".repeat(180)}`,
    ...(refused
      ? {
          refusal: {
            kind: "service_refused" as const,
            words: ["Amount exceeds the maximum payout ".repeat(10)],
          },
        }
      : {
          payout: `P${index}`,
          quote: {
            amount: `${index}000.5`,
            fee: "10.01",
            receives: `${index}000.5`,
            leavesBalance: `${index}010.51`,
            currency: "RUB",
            rub: `${index}000.5`,
          },
        }),
  };
}

function batchOf(status: Batch["status"]): Batch {
  return batchSchema.parse({
    v: 1,
    id: "abcdefghij",
    registerKey: "T0TEAM",
    team: "T0TEAM",
    requester: "U0REQ",
    reason: "October <payroll> & *bonuses*",
    createdAt: AT,
    expiresAt: AT,
    status,
    rows: Array.from({ length: 50 }, (_, index) => row(index + 1)),
    balances: [{ method: "CARDRUBP2P", value: "1000", currency: "RUB" }],
    needed: 2,
    rule: "threshold",
    ruleAt: "10000",
    votes: [{ by: "U0ANNA", at: AT }],
  });
}

function requests(batch: Batch): RowRequests {
  const states = ["waiting", "submitted", "ended", "stopped"] as const;
  return new Map(
    batch.rows.flatMap((one, index): [string, PayoutRequest][] => {
      if (!one.payout) return [];
      const status = states[index % states.length] ?? "waiting";
      const request = payoutRequestSchema.parse({
        v: 1,
        id: one.payout,
        registerKey: "T0TEAM",
        team: "T0TEAM",
        requester: "U0REQ",
        amount: one.amount,
        fee: "10.01",
        receives: one.amount,
        leavesBalance: one.amount,
        currency: "RUB",
        rubAmount: one.amount,
        method: "CARDRUBP2P",
        wallet: one.wallet,
        subtractFrom: "balance",
        reason: "x",
        reference: "",
        createdAt: AT,
        expiresAt: AT,
        needed: 2,
        votes: [],
        status,
        ...(status === "ended"
          ? { service: { state: "failed", message: "Declined <by> bank", at: AT } }
          : {}),
      });
      return [[one.payout, request]];
    }),
  );
}

describe("a batch's card", () => {
  for (const lang of ["en", "ru"] as const)
    for (const status of ["waiting", "approved", "ended"] as const)
      it(`keeps 50 long rows within Block Kit's limits, escaped (${lang}, ${status})`, () => {
        const batch = batchOf(status);
        const kept = batch.rows.filter((one) => one.payout);
        const view = {
          batch,
          card: { register: "main", several: false },
          rows: requests(batch),
          totals: methodTotals(kept, batch.balances),
          total: batchTotal(batch),
        };
        const message = batchCardMessage(view, lang);
        expectWithinBlockKitLimits(message);
        const shown = JSON.stringify(message.blocks);
        // Every row is there, none cut to fit.
        for (let index = 1; index <= 50; index += 1) expect(shown).toContain(`${index}. `);
        expect(shown).not.toContain("<Partner>");
        expect(shown).not.toContain("<@U123>");
        expect(shown).toContain("&lt;payroll&gt;");
        expect(shown).toContain(lang === "en" ? "Batch payout" : "Пакет выплат");
        if (status === "waiting")
          expect(shown).toContain(lang === "en" ? "Drop refused rows" : "Убрать отклонённые");
        else expect(shown).toMatch(lang === "en" ? /\d+ of 45 sent/ : /Отправлено \d+ из 45/);
        expect(shown).toContain(
          lang === "en" ? "is below what this batch takes" : "меньше, чем спишет пакет",
        );
      });
});
