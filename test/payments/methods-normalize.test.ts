import { describe, expect, it } from "vitest";
import {
  manyMethods,
  payoutOnlyMethod,
  renderMethodsV2,
  renderMethodsV3,
  type SampleMethod,
  sampleMethods,
} from "../../sandbox/fake-payments.js";
import type { PaymentMethod } from "../../src/payments/model.js";
import { methodsFromV2, methodsFromV3 } from "../../src/payments/normalize.js";
import { methodListV2Schema, methodListV3Schema } from "../../src/payments/schemas.js";

/** A v2 answer as the PHP backend writes it: bare JSON numbers, tiny ones in exponent notation. */
const V2_TEXT = `{
  "error": false,
  "errors": [],
  "methods": {
    "BITCOIN": {
      "name": "Bitcoin",
      "enabled": true,
      "extra_commission_percent": 0.5,
      "minimal_status_level": 0,
      "currency": "BTC",
      "commission_percent": 1.5,
      "commission": 4.0e-6
    },
    "BTCCRYPTOBOT": {
      "name": "BTC (CryptoBot)",
      "enabled": true,
      "extra_commission_percent": 0,
      "minimal_status_level": 2,
      "currency": "BTC",
      "commission_percent": 3,
      "commission": 1e-7
    },
    "ETHCRYPTOBOT": {
      "name": "ETH (CryptoBot)",
      "enabled": false,
      "extra_commission_percent": 0.1,
      "minimal_status_level": -1,
      "currency": "ETH",
      "commission_percent": 3,
      "commission": 0
    }
  }
}`;

/** One v3 entry with a different value in every field, so a swapped field cannot pass. */
function v3Entry(overrides: { settingsEnabled?: boolean; inEnabled?: boolean } = {}) {
  return {
    name: "Bitcoin",
    currency: "BTC",
    amount_accuracy: "8",
    minimal_status_level: "-1",
    settings: {
      in: {
        enabled: overrides.settingsEnabled ?? true,
        extra_commissions: { percent: "0.5", amount: "0.00000002" },
      },
      out: { enabled: false, extra_commissions: { percent: "9", amount: "9" } },
    },
    in: {
      enabled: overrides.inEnabled ?? true,
      commissions: { percent: "1.5", amount: "0.000004" },
      limits: { min: "0.0001", max: "100" },
      fee: "0",
    },
    out: {
      enabled: true,
      commissions: { percent: "8", amount: "8" },
      limits: { min: "7", max: "7" },
      fee: "6",
    },
  };
}

const v3Answer = (items: Record<string, unknown>) => ({ error: false, errors: [], items });

function fromV2(samples: SampleMethod[]): PaymentMethod[] {
  return methodsFromV2(methodListV2Schema.parse(JSON.parse(renderMethodsV2(samples)))).methods;
}

function fromV3(samples: SampleMethod[]): PaymentMethod[] {
  return methodsFromV3(methodListV3Schema.parse(JSON.parse(renderMethodsV3(samples)))).methods;
}

/** A fresh, deeply copied v2 answer to break one field of. */
function v2Raw(): { methods: Record<string, Record<string, unknown>> } & Record<string, unknown> {
  return JSON.parse(V2_TEXT) as { methods: Record<string, Record<string, unknown>> } & Record<
    string,
    unknown
  >;
}

describe("methodsFromV2", () => {
  it("maps every field and keeps tiny amounts as plain decimal strings", () => {
    expect(methodsFromV2(methodListV2Schema.parse(JSON.parse(V2_TEXT))).methods).toEqual([
      {
        code: "BITCOIN",
        name: "Bitcoin",
        enabled: true,
        switchedOn: true,
        currency: "BTC",
        commissionPercent: "1.5",
        commission: { value: "0.000004", currency: "BTC" },
        extraCommissionPercent: "0.5",
        extraCommission: null,
        minimalStatusLevel: 0,
        limits: null,
      },
      {
        code: "BTCCRYPTOBOT",
        name: "BTC (CryptoBot)",
        enabled: true,
        switchedOn: true,
        currency: "BTC",
        commissionPercent: "3",
        commission: { value: "0.0000001", currency: "BTC" },
        extraCommissionPercent: "0",
        extraCommission: null,
        minimalStatusLevel: 2,
        limits: null,
      },
      {
        code: "ETHCRYPTOBOT",
        name: "ETH (CryptoBot)",
        enabled: false,
        switchedOn: false,
        currency: "ETH",
        commissionPercent: "3",
        commission: { value: "0", currency: "ETH" },
        extraCommissionPercent: "0.1",
        extraCommission: null,
        minimalStatusLevel: -1,
        limits: null,
      },
    ]);
  });

  it("reads the sandbox register's 20 methods in order, with exact decimals", () => {
    const methods = fromV2(sampleMethods());
    expect(methods.map((method) => method.code)).toEqual(sampleMethods().map((sample) => sample.code));
    const byCode = new Map(methods.map((method) => [method.code, method]));
    expect(byCode.get("BTCCRYPTOBOT")?.commission).toEqual({ value: "0.0000001", currency: "BTC" });
    expect(byCode.get("BITCOIN")?.commission).toEqual({ value: "0.000004", currency: "BTC" });
    expect(byCode.get("TRON")?.commission).toEqual({ value: "2", currency: "TRX" });
    expect(byCode.get("USDTTRC")?.extraCommissionPercent).toBe("0.2");
    expect(byCode.get("CARDRUBP2P")?.commissionPercent).toBe("5.5");
    expect(byCode.get("ETHCRYPTOBOT")?.minimalStatusLevel).toBe(-1);
    expect(methods.filter((method) => !method.enabled).map((method) => method.code)).toEqual([
      "ETHCRYPTOBOT",
      "USDTCRYPTOBOT",
      "TEST",
    ]);
  });

  it("keeps decimals a float would spoil", () => {
    const raw = v2Raw();
    const bitcoin = raw.methods.BITCOIN;
    if (!bitcoin) throw new Error("no BITCOIN");
    Object.assign(bitcoin, {
      commission_percent: 0.1,
      extra_commission_percent: 0.2,
      commission: 1234567.0000001,
    });
    const [method] = methodsFromV2(methodListV2Schema.parse(raw)).methods;
    expect(method?.commissionPercent).toBe("0.1");
    expect(method?.extraCommissionPercent).toBe("0.2");
    expect(method?.commission.value).toBe("1234567.0000001");
  });

  it("accepts the minimal status level as a digit string", () => {
    const raw = v2Raw();
    Object.assign(raw.methods.ETHCRYPTOBOT ?? {}, { minimal_status_level: "-1" });
    expect(methodsFromV2(methodListV2Schema.parse(raw)).methods[2]?.minimalStatusLevel).toBe(-1);
  });

  it("reads an empty method list", () => {
    expect(methodsFromV2(methodListV2Schema.parse({ error: false, errors: [], methods: {} }))).toEqual({
      methods: [],
      payoutOnly: [],
      unreadable: [],
    });
  });
});

describe("methodsFromV3", () => {
  it("maps the nested fields as the notes say", () => {
    const raw = methodListV3Schema.parse(v3Answer({ BITCOIN: v3Entry() }));
    expect(methodsFromV3(raw).methods).toEqual([
      {
        code: "BITCOIN",
        name: "Bitcoin",
        enabled: true,
        switchedOn: true,
        currency: "BTC",
        // in.commissions.percent / .amount
        commissionPercent: "1.5",
        commission: { value: "0.000004", currency: "BTC" },
        // settings.in.extra_commissions.percent / .amount
        extraCommissionPercent: "0.5",
        extraCommission: { value: "0.00000002", currency: "BTC" },
        minimalStatusLevel: -1,
        limits: { min: { value: "0.0001", currency: "BTC" }, max: { value: "100", currency: "BTC" } },
      },
    ]);
  });

  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
    [false, false, false],
  ])("settings.in.enabled %s and in.enabled %s -> enabled %s", (settingsEnabled, inEnabled, enabled) => {
    const raw = methodListV3Schema.parse(v3Answer({ BITCOIN: v3Entry({ settingsEnabled, inEnabled }) }));
    expect(methodsFromV3(raw).methods[0]?.enabled).toBe(enabled);
    // The merchant's own switch is what method/edit sets, whatever the service does.
    expect(methodsFromV3(raw).methods[0]?.switchedOn).toBe(settingsEnabled);
  });

  it("keeps missing limits as null", () => {
    const entry = v3Entry();
    const onlyMax = { ...entry, in: { ...entry.in, limits: { min: null, max: "100" } } };
    const none = { ...entry, in: { ...entry.in, limits: null } };
    const { methods } = methodsFromV3(methodListV3Schema.parse(v3Answer({ MAXONLY: onlyMax, NONE: none })));
    expect(methods.map((method) => [method.code, method.limits])).toEqual([
      ["MAXONLY", { min: null, max: { value: "100", currency: "BTC" } }],
      ["NONE", null],
    ]);
  });

  it("accepts JSON numbers where v3 usually writes strings", () => {
    const entry = v3Entry();
    const numeric = {
      ...entry,
      minimal_status_level: 2,
      in: { ...entry.in, commissions: { percent: 1.5, amount: 1e-7 } },
    };
    const [method] = methodsFromV3(methodListV3Schema.parse(v3Answer({ BITCOIN: numeric }))).methods;
    expect(method?.minimalStatusLevel).toBe(2);
    expect(method?.commissionPercent).toBe("1.5");
    expect(method?.commission).toEqual({ value: "0.0000001", currency: "BTC" });
  });

  it("agrees with v2 on the sandbox register wherever both versions carry the field", () => {
    const samples = sampleMethods();
    const v2 = fromV2(samples);
    const v3 = fromV3(samples);
    expect(v3.map(({ extraCommission, limits, ...rest }) => rest)).toEqual(
      v2.map(({ extraCommission, limits, ...rest }) => rest),
    );
    expect(v3.find((method) => method.code === "BITCOIN")).toEqual({
      code: "BITCOIN",
      name: "Bitcoin",
      enabled: true,
      switchedOn: true,
      currency: "BTC",
      commissionPercent: "1.5",
      commission: { value: "0.000004", currency: "BTC" },
      extraCommissionPercent: "0.5",
      extraCommission: { value: "0", currency: "BTC" },
      minimalStatusLevel: 0,
      limits: { min: { value: "0.0001", currency: "BTC" }, max: { value: "100", currency: "BTC" } },
    });
  });

  it("marks a method the service disabled as disabled although the merchant enabled it", () => {
    const samples = sampleMethods().map((sample) =>
      sample.code === "TRON" ? { ...sample, serviceDisabled: true } : sample,
    );
    expect(fromV3(samples).find((method) => method.code === "TRON")?.enabled).toBe(false);
    expect(fromV3(samples).find((method) => method.code === "TRON")?.switchedOn).toBe(true);
    // v2 has no such flag: the fake renders the merchant's setting only.
    expect(fromV2(samples).find((method) => method.code === "TRON")?.enabled).toBe(true);
  });

  it("reads 60 methods of both versions alike", () => {
    const v2 = fromV2(manyMethods(60));
    const v3 = fromV3(manyMethods(60));
    expect(v2).toHaveLength(60);
    expect(v3.map((method) => method.commission)).toEqual(v2.map((method) => method.commission));
    expect(v2[0]?.commission).toEqual({ value: "0.00000012", currency: "BTC" });
  });
});

describe("method list schemas: strict about the list, lenient about one entry", () => {
  /** Whether BITCOIN is set aside (the rest of the list still read), naming the field at fault. */
  const setAside = (mutate: (raw: ReturnType<typeof v2Raw>) => void) => {
    const raw = v2Raw();
    mutate(raw);
    const catalog = methodsFromV2(methodListV2Schema.parse(raw));
    expect(catalog.methods.map((method) => method.code)).toEqual(["BTCCRYPTOBOT", "ETHCRYPTOBOT"]);
    return catalog.unreadable;
  };

  it("accepts the sample answers of both versions", () => {
    expect(methodListV2Schema.safeParse(JSON.parse(V2_TEXT)).success).toBe(true);
    expect(methodListV3Schema.safeParse(v3Answer({ BITCOIN: v3Entry() })).success).toBe(true);
  });

  it("v2: sets aside one method with enabled as a string, reading the others", () => {
    expect(setAside((raw) => Object.assign(raw.methods.BITCOIN ?? {}, { enabled: "yes" }))).toEqual([
      { code: "BITCOIN", reason: "enabled: Invalid input: expected boolean, received string" },
    ]);
  });

  it("v2: sets aside a method with a numeric name", () => {
    expect(setAside((raw) => Object.assign(raw.methods.BITCOIN ?? {}, { name: 5 }))).toHaveLength(1);
  });

  it("v2: rejects an answer without `methods` (the list itself is required)", () => {
    const raw = v2Raw();
    delete (raw as Record<string, unknown>).methods;
    expect(methodListV2Schema.safeParse(raw).success).toBe(false);
    expect(methodListV2Schema.safeParse({ error: false, errors: [] }).success).toBe(false);
    expect(methodListV2Schema.safeParse({ error: false, errors: [], methods: [1] }).success).toBe(false);
  });

  it.each(["abc", "", "1,5", "NaN", "0x10", true, null])(
    "v2: sets aside a method with commission %j",
    (commission) => {
      expect(setAside((raw) => Object.assign(raw.methods.BITCOIN ?? {}, { commission }))).toEqual([
        { code: "BITCOIN", reason: expect.stringMatching(/^commission: /) },
      ]);
    },
  );

  it("v2: sets aside a method missing a commission or with a bad currency", () => {
    expect(setAside((raw) => delete raw.methods.BITCOIN?.commission_percent)).toHaveLength(1);
    expect(setAside((raw) => Object.assign(raw.methods.BITCOIN ?? {}, { currency: "B" }))).toHaveLength(1);
  });

  it("v2: a status level it cannot read is left out, the method kept", () => {
    const raw = v2Raw();
    Object.assign(raw.methods.BITCOIN ?? {}, { minimal_status_level: 1.5, surprise: { nested: true } });
    const catalog = methodsFromV2(methodListV2Schema.parse(raw));
    expect(catalog.unreadable).toEqual([]);
    expect(catalog.methods[0]).toMatchObject({ code: "BITCOIN", minimalStatusLevel: null });
  });

  it("v2: rejects a v3 answer", () => {
    expect(methodListV2Schema.safeParse(v3Answer({ BITCOIN: v3Entry() })).success).toBe(false);
  });

  it("v3: an entry with `in` but no settings has no known extra commission: set aside", () => {
    const { settings: _settings, ...withoutSettings } = v3Entry();
    const catalog = methodsFromV3(
      methodListV3Schema.parse(v3Answer({ BITCOIN: withoutSettings, OK: v3Entry() })),
    );
    expect(catalog.methods.map((method) => method.code)).toEqual(["OK"]);
    expect(catalog.unreadable).toEqual([{ code: "BITCOIN", reason: "settings.in: missing" }]);
  });

  it("v3: sets aside one entry with a wrong type in the nested fields", () => {
    const entry = v3Entry();
    const badEnabled = { ...entry, in: { ...entry.in, enabled: "true" } };
    const badPercent = {
      ...entry,
      settings: { in: { enabled: true, extra_commissions: { percent: "abc", amount: "0" } } },
    };
    const catalog = methodsFromV3(
      methodListV3Schema.parse(v3Answer({ BAD1: badEnabled, BAD2: badPercent, GOOD: v3Entry() })),
    );
    expect(catalog.methods.map((method) => method.code)).toEqual(["GOOD"]);
    expect(catalog.unreadable.map((entry) => entry.code)).toEqual(["BAD1", "BAD2"]);
    expect(catalog.unreadable[0]?.reason).toMatch(/^in\.enabled: /);
  });

  it("v3: an odd limit, fee or accuracy is left out, the method kept", () => {
    const entry = v3Entry();
    const odd = {
      ...entry,
      amount_accuracy: "eight",
      unknown_field: [1, 2],
      in: { ...entry.in, limits: { min: "n/a", max: "100" }, fee: {} },
    };
    const { methods, unreadable } = methodsFromV3(methodListV3Schema.parse(v3Answer({ BITCOIN: odd })));
    expect(unreadable).toEqual([]);
    expect(methods[0]?.limits).toEqual({ min: null, max: { value: "100", currency: "BTC" } });
  });

  it("v3: rejects a v2 answer", () => {
    expect(methodListV3Schema.safeParse(JSON.parse(V2_TEXT)).success).toBe(false);
  });
});

describe("methodsFromV3: payout-only methods and limits of 0", () => {
  it("a method without `in` is payout-only: left out of the list and named, the rest read", () => {
    const { in: _in, settings: _settings, ...payout } = v3Entry();
    const raw = methodListV3Schema.parse(
      v3Answer({ BITCOIN: v3Entry(), CARDRUBPAYOUT: { ...payout, settings: { out: { enabled: true } } } }),
    );
    const catalog = methodsFromV3(raw);
    expect(catalog.methods.map((method) => method.code)).toEqual(["BITCOIN"]);
    expect(catalog.payoutOnly).toEqual(["CARDRUBPAYOUT"]);
    expect(catalog.unreadable).toEqual([]);
  });

  it("a method with `in` is a payment method, as in the docs", () => {
    const catalog = methodsFromV3(methodListV3Schema.parse(v3Answer({ BITCOIN: v3Entry() })));
    expect(catalog.payoutOnly).toEqual([]);
    expect(catalog.methods[0]?.enabled).toBe(true);
  });

  it('limits of "0" mean no limit (the docs\' example: an enabled method with min "0", max "0")', () => {
    const entry = v3Entry();
    const zero = { ...entry, in: { ...entry.in, limits: { min: "0", max: "0" } } };
    const maxOnly = { ...entry, in: { ...entry.in, limits: { min: "0.00", max: "5" } } };
    const minOnly = { ...entry, in: { ...entry.in, limits: { min: "10", max: "0" } } };
    const { methods } = methodsFromV3(
      methodListV3Schema.parse(v3Answer({ ZERO: zero, MAXONLY: maxOnly, MINONLY: minOnly })),
    );
    expect(methods.map((method) => [method.code, method.enabled, method.limits])).toEqual([
      ["ZERO", true, null],
      ["MAXONLY", true, { min: null, max: { value: "5", currency: "BTC" } }],
      ["MINONLY", true, { min: { value: "10", currency: "BTC" }, max: null }],
    ]);
  });

  it("the sandbox renders payout-only methods without `in` (v3) and leaves them out of v2", () => {
    const samples = [...sampleMethods().slice(0, 2), payoutOnlyMethod()];
    const v3 = methodsFromV3(methodListV3Schema.parse(JSON.parse(renderMethodsV3(samples))));
    expect(v3.payoutOnly).toEqual(["CARDRUBPAYOUT"]);
    expect(v3.methods).toHaveLength(2);
    expect(fromV2(samples)).toHaveLength(2);
  });
});
