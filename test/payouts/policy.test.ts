/** The payout policy's rules: what an admin may set, checked the same for the form and the CLI. */
import { describe, expect, it } from "vitest";
import { formatExpiry } from "../../src/i18n/payouts.js";
import {
  checkPolicy,
  EXPIRY_DEFAULT_MINUTES,
  type PolicyInput,
  parseExpiry,
} from "../../src/payouts/policy.js";

const INPUT: PolicyInput = {
  enabled: true,
  approvers: ["U0AAA1", "U0BBB2"],
  channel: "C0PAY1",
  twoApproversFrom: "50000",
  requesterDaily: "100000",
  registerDaily: "300000.5",
  expiryMinutes: 1440,
  methods: [],
  requesters: [],
};

describe("checkPolicy", () => {
  it("accepts two approvers, a channel, exact amounts and a wait in range", () => {
    const checked = checkPolicy(INPUT);
    expect(checked).toEqual({ ok: true, draft: { ...INPUT } });
  });

  it("keeps each person and method once", () => {
    const checked = checkPolicy({
      ...INPUT,
      approvers: ["U0AAA1", "U0BBB2", "U0AAA1"],
      methods: ["BITCOIN", "BITCOIN"],
      requesters: ["U0CCC3", "U0CCC3"],
    });
    expect(checked.ok && checked.draft).toMatchObject({
      approvers: ["U0AAA1", "U0BBB2"],
      methods: ["BITCOIN"],
      requesters: ["U0CCC3"],
    });
  });

  it.each([
    [{ approvers: ["U0AAA1"] }, { field: "approvers", reason: "too_few" }],
    [{ approvers: ["U0AAA1", "U0AAA1"] }, { field: "approvers", reason: "too_few" }],
    [{ approvers: ["U0AAA1", "not-a-user"] }, { field: "approvers", reason: "not_people" }],
    [{ channel: undefined }, { field: "channel", reason: "missing" }],
    [{ channel: "D0DM1" }, { field: "channel", reason: "missing" }],
    [{ twoApproversFrom: null }, { field: "twoApproversFrom", reason: "not_an_amount" }],
    [{ twoApproversFrom: "invalid" }, { field: "twoApproversFrom", reason: "not_an_amount" }],
    [{ requesterDaily: "0" }, { field: "requesterDaily", reason: "not_an_amount" }],
    [{ registerDaily: "1e5" }, { field: "registerDaily", reason: "not_an_amount" }],
    [{ registerDaily: "10.123" }, { field: "registerDaily", reason: "not_an_amount" }],
    [{ requesterDaily: "300001" }, { field: "requesterDaily", reason: "above_register_daily" }],
    [{ expiryMinutes: 4 }, { field: "expiryMinutes", reason: "out_of_range" }],
    [{ expiryMinutes: 72 * 60 + 1 }, { field: "expiryMinutes", reason: "out_of_range" }],
    [{ expiryMinutes: "invalid" as const }, { field: "expiryMinutes", reason: "out_of_range" }],
    [{ methods: ["BIT COIN"] }, { field: "methods", reason: "not_codes" }],
    [{ requesters: ["#general"] }, { field: "requesters", reason: "not_people" }],
  ])("refuses %j", (change, problem) => {
    const checked = checkPolicy({ ...INPUT, ...change });
    expect(checked).toEqual({ ok: false, problems: [problem] });
  });

  it("says every problem at once", () => {
    const checked = checkPolicy({ ...INPUT, approvers: [], channel: undefined, registerDaily: null });
    expect(checked.ok ? [] : checked.problems.map((problem) => problem.field)).toEqual([
      "approvers",
      "channel",
      "registerDaily",
    ]);
  });

  it("takes the bounds themselves", () => {
    expect(checkPolicy({ ...INPUT, expiryMinutes: 5 }).ok).toBe(true);
    expect(checkPolicy({ ...INPUT, expiryMinutes: 72 * 60 }).ok).toBe(true);
    expect(checkPolicy({ ...INPUT, requesterDaily: "300000.5" }).ok).toBe(true);
  });
});

describe("the wait, as written", () => {
  it.each([
    ["", EXPIRY_DEFAULT_MINUTES],
    ["24h", 1440],
    ["24", 1440],
    ["90m", 90],
    ["1h30m", 90],
    ["1h 30m", 90],
    ["2d", 2880],
    ["5 min", 5],
    ["24ч", 1440],
    ["30м", 30],
    ["soon", "invalid"],
    ["h", "invalid"],
    ["-5m", "invalid"],
  ])("%j is %s", (text, minutes) => {
    expect(parseExpiry(text)).toBe(minutes);
  });

  it("writes minutes back as people read them, and reads its own writing", () => {
    for (const minutes of [5, 59, 60, 90, 1440, 4320])
      expect(parseExpiry(formatExpiry(minutes))).toBe(minutes);
    expect(formatExpiry(1440)).toBe("24h");
    expect(formatExpiry(90)).toBe("1h30m");
  });
});
