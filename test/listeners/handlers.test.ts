import { describe, expect, it } from "vitest";
import type { SlackMessage } from "../../src/blocks/message.js";
import { openConnect } from "../../src/listeners/actions/admin.js";
import { invoiceCardButton } from "../../src/listeners/actions/invoice.js";
import { invoiceCommand } from "../../src/listeners/commands/invoice.js";
import type { ListenerDeps } from "../../src/listeners/deps.js";
import { InFlight } from "../../src/listeners/in-flight.js";
import type { ActionArgs, CommandArgs } from "../../src/listeners/router.js";
import { createLogger } from "../../src/logger.js";
import { invoiceFromV2 } from "../../src/payments/normalize.js";
import { invoiceV2Schema } from "../../src/payments/schemas.js";
import { RateLimiter } from "../../src/store/rate-limit.js";

/** Handlers called directly with fake Bolt arguments: no server, no Slack, no payment service. */
function fakeDeps(options: { userPerMinute?: number } = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const calls: string[] = [];
  const deps = {
    logger: createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line)) }),
    inFlight: new InFlight(),
    rateLimiter: new RateLimiter(undefined, {
      userPerMinute: options.userPerMinute ?? 100,
      teamPerMinute: 100,
    }),
    timeoutMs: 1000,
    now: () => new Date("2026-01-01T00:00:00Z"),
    adminUserIds: [],
    replyVisibility: "private",
    defaultApiVersion: "v1",
    watches: { maxPerWorkspace: 0 },
    stores: {
      settings: { get: async () => ({}) },
      installations: { installerUserId: async () => "UINSTALLER" },
    },
    payments: {
      invoice: async () => {
        calls.push("payments.invoice");
        throw new Error("the payment service must not be asked");
      },
    },
  } as unknown as ListenerDeps;
  return { deps, lines, calls };
}

function recorder() {
  const replies: Array<SlackMessage & Record<string, unknown>> = [];
  let acked = 0;
  return {
    replies,
    acked: () => acked,
    ack: async () => {
      acked += 1;
    },
    respond: async (message: SlackMessage & Record<string, unknown>) => void replies.push(message),
  };
}

describe("listener handlers, called directly", () => {
  it("refuses a card button pressed in another workspace, privately, without asking the service", async () => {
    const { deps, lines, calls } = fakeDeps();
    const r = recorder();
    const value = JSON.stringify({ t: "TOTHER", id: "42", s: "paid" });
    await invoiceCardButton(deps)({
      ack: r.ack,
      respond: r.respond,
      client: {},
      body: { team: { id: "TMINE" }, user: { id: "U1" }, container: { is_ephemeral: false } },
      action: { action_id: "invoice_refresh", value },
    } as unknown as ActionArgs);
    expect(r.acked()).toBe(1);
    expect(calls).toEqual([]);
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]?.replace_original).toBe(false);
    expect(r.replies[0]?.text).toContain("another workspace");
    expect(lines[0]).toMatchObject({
      action: "invoice_refresh",
      team: "TMINE",
      outcome: "foreign_card",
      invoice: "42",
    });
  });

  it("refuses Connect to someone who may not manage, as a new private note under the reply", async () => {
    const { deps, lines } = fakeDeps();
    const r = recorder();
    const client = { users: { info: async () => ({ user: { is_admin: false } }) }, views: {} };
    await openConnect(deps)({
      ack: r.ack,
      respond: r.respond,
      client,
      body: { team: { id: "T1" }, user: { id: "U1" }, trigger_id: "trig" },
      action: { action_id: "kassa_open_connect", value: "reply" },
    } as unknown as ActionArgs);
    expect(r.replies).toHaveLength(1);
    expect(r.replies[0]?.replace_original).toBe(false);
    expect(r.replies[0]?.text).toContain("connect the cash register");
    expect(lines[0]).toMatchObject({ action: "kassa_open_connect", outcome: "not_allowed" });
  });

  it("answers a user over the rate limit with a slow-down note and logs which limit", async () => {
    const { deps, lines } = fakeDeps({ userPerMinute: 1 });
    const r = recorder();
    const args = {
      ack: r.ack,
      respond: r.respond,
      client: {},
      command: { command: "/invoice", text: "help", team_id: "T1", user_id: "U1" },
    } as unknown as CommandArgs;
    await invoiceCommand(deps)(args);
    await invoiceCommand(deps)(args);
    expect(r.acked()).toBe(2);
    expect(lines.map((line) => line.outcome)).toEqual(["help", "rate_limited"]);
    expect(lines[1]).toMatchObject({ command: "/invoice", team: "T1", user: "U1", limit: "user" });
    expect(r.replies[1]?.text).toContain("Slow down");
  });

  it("sends a private card back to the asker with a Share button, and posts a channel card in the channel", async () => {
    const invoice = invoiceFromV2(
      invoiceV2Schema.parse({
        id: "715308962_PaidInFull",
        url: "https://pay.crystalpay.io/?i=715308962_PaidInFull",
        state: "payed",
        type: "purchase",
        method: null,
        required_method: "",
        currency: "RUB",
        service_commission: 0,
        extra_commission: 0,
        amount: 1500,
        pay_amount: 1500,
        remaining_amount: 0,
        balance_amount: 1500,
        description: "",
        redirect_url: "",
        callback_url: "",
        extra: "",
        created_at: "2026-01-01 10:00:00",
        expired_at: "2026-01-02 10:00:00",
      }),
      "Europe/Moscow",
    );
    const posted: Array<Record<string, unknown>> = [];
    const client = {
      chat: {
        postMessage: async (message: Record<string, unknown>) => {
          posted.push(message);
          return { ok: true, channel: message.channel, ts: "1700000000.000100" };
        },
      },
    };
    for (const visibility of ["private", "channel"] as const) {
      const { deps, lines } = fakeDeps();
      Object.assign(deps, {
        stores: { ...deps.stores, settings: { get: async () => ({ replyVisibility: visibility }) } },
        payments: { invoice: async () => invoice, methodFor: async () => undefined },
        // A paid invoice is final: nothing to watch either way.
        watches: { maxPerWorkspace: 0, shouldWatch: () => false },
      });
      const r = recorder();
      await invoiceCommand(deps)({
        ack: r.ack,
        respond: r.respond,
        client,
        command: {
          command: "/invoice",
          text: invoice.id,
          team_id: "T1",
          user_id: "U1",
          channel_id: "C1",
        },
      } as unknown as CommandArgs);
      expect(lines[0]).toMatchObject({
        command: "/invoice",
        outcome: "ok",
        invoice: invoice.id,
        state: "payed",
      });
      if (visibility === "private") {
        expect(posted).toHaveLength(0);
        expect(r.replies).toHaveLength(1);
        expect(r.replies[0]?.response_type).toBe("ephemeral");
        expect(JSON.stringify(r.replies[0])).toContain("invoice_share");
      } else {
        expect(r.replies).toHaveLength(0);
        expect(posted).toHaveLength(1);
        expect(posted[0]?.channel).toBe("C1");
        expect(JSON.stringify(posted[0])).not.toContain("invoice_share");
      }
    }
  });
});
