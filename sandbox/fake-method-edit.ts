/**
 * The fake payment service's method calls beyond the list (notes/methods.md): `method/edit/` (v2 with
 * all three fields required, v3 with `enabled` and `extra_commission_percent` optional), v3
 * `method/get/`, an edit made "outside" (the dashboard, or anyone holding Secret 1), and the edit's
 * faults. An edit changes the merchant's own switch and surcharge (v2 `enabled`, v3 `settings.in`);
 * payout-only methods are not payment methods here and are refused as unknown. The refusals'
 * wording is the sandbox's own, in the service's usual form (`` `field` field is required ``).
 */
import Big from "big.js";
import { HTML_502, type Reply, reply } from "./payments-http.js";
import { renderMethodV3, toJson } from "./payments-render.js";
import type { SampleMethod } from "./payments-samples.js";

/**
 * How `method/edit/` misbehaves (`fake.methodEditFault = ...`, until cleared): `refuse` answers
 * error:true with `methodEditRefusal` and changes nothing; `applied-502` changes the method, then
 * answers a proxy's HTTP 502 (the answer lost on the way back); `slow` answers after slowMs (longer
 * than the client's time-out) and changes the method only then, as a service still at work would:
 * a read right after the time-out shows the old state, a read after slowMs the new one.
 */
export type MethodEditFault = "refuse" | "applied-502" | "slow";

/** One `method/edit/` the fake received (a test counts them: "sent once"), whatever came of it. */
export type MethodEditCall = {
  version: "v2" | "v3";
  login: string;
  /** The request's fields as sent, the credentials left out (`method`, `enabled`, `extra_commission_percent`). */
  fields: Record<string, unknown>;
  /** Whether it changed the method table (a refused edit did not; a slow one only once it answers). */
  applied: boolean;
  at: number;
};

/** A change to a method: its merchant's switch, its surcharge in percent (a decimal string). */
export type MethodChange = { on?: boolean; surchargePercent?: string };

export type MethodDeskDeps = {
  methods: () => SampleMethod[];
  /** Keeps a received edit (fake.methodEdits). */
  record: (call: MethodEditCall) => void;
  fault: () => MethodEditFault | null;
  refusal: () => string[];
  /** Waits `ms` (a timer the fake clears when it closes). */
  wait: (ms: number) => Promise<void>;
  slowMs: number;
};

const refused = (...messages: string[]): Reply => reply(200, toJson({ error: true, errors: messages }));
const accepted = (): Reply => reply(200, toJson({ error: false, errors: [] }));

/** `enabled` as the service reads a boolean field: true/false, 1/0, "1"/"0" (and "true"/"false"). */
function readEnabled(value: unknown): boolean | undefined {
  if (value === true || value === 1 || value === "1" || value === "true") return true;
  if (value === false || value === 0 || value === "0" || value === "false") return false;
  return undefined;
}

/** A percent from 0 to 100 as a plain decimal string; a message naming the field otherwise. */
function readPercent(value: unknown): { percent: string } | { error: string } {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !/^-?\d+(\.\d+)?$/.test(text))
    return { error: "`extra_commission_percent` field is invalid" };
  const percent = new Big(text);
  if (percent.lt(0) || percent.gt(100)) return { error: "`extra_commission_percent` must be from 0 to 100" };
  return { percent: percent.toFixed() };
}

function findMethod(methods: SampleMethod[], code: unknown): SampleMethod | undefined {
  return typeof code === "string" ? methods.find((m) => m.code === code && !m.payoutOnly) : undefined;
}

/** Sets a method's switch and surcharge as asked (only what is given). */
export function applyChange(method: SampleMethod, change: MethodChange): void {
  if (change.on !== undefined) method.enabled = change.on;
  if (change.surchargePercent !== undefined) method.extraCommissionPercent = change.surchargePercent;
}

/** The fields checked as the service does; the change they ask for, or the refusal. */
function readEdit(
  version: "v2" | "v3",
  body: Record<string, unknown>,
  methods: SampleMethod[],
): { method: SampleMethod; change: MethodChange } | { refusal: string } {
  const required = version === "v2" ? ["method", "extra_commission_percent", "enabled"] : ["method"];
  for (const field of required) {
    if (body[field] === undefined || body[field] === null || body[field] === "")
      return { refusal: `\`${field}\` field is required` };
  }
  const method = findMethod(methods, body.method);
  if (!method) return { refusal: "Method not found" };
  const change: MethodChange = {};
  if (body.enabled !== undefined) {
    const on = readEnabled(body.enabled);
    if (on === undefined) return { refusal: "`enabled` field must be true or false" };
    change.on = on;
  }
  if (body.extra_commission_percent !== undefined) {
    const percent = readPercent(body.extra_commission_percent);
    if ("error" in percent) return { refusal: percent.error };
    change.surchargePercent = percent.percent;
  }
  return { method, change };
}

/** The method desk: answers `method/edit/` and `method/get/`, and changes methods "outside". */
export function openMethodDesk(deps: MethodDeskDeps) {
  return {
    async edit(version: "v2" | "v3", body: Record<string, unknown>): Promise<Reply> {
      const { auth_login, auth_secret: _secret, ...fields } = body;
      const call: MethodEditCall = {
        version,
        login: String(auth_login),
        fields,
        applied: false,
        at: Date.now(),
      };
      deps.record(call);
      const fault = deps.fault();
      if (fault === "refuse") return refused(...deps.refusal());
      const read = readEdit(version, body, deps.methods());
      if ("refusal" in read) return refused(read.refusal);
      if (fault === "slow") await deps.wait(deps.slowMs);
      applyChange(read.method, read.change);
      call.applied = true;
      return fault === "applied-502" ? reply(502, HTML_502, "text/html") : accepted();
    },

    get(body: Record<string, unknown>): Reply {
      if (typeof body.method !== "string" || body.method === "") return refused("`method` field is required");
      const method = findMethod(deps.methods(), body.method);
      return method ? reply(200, renderMethodV3(method)) : refused("Method not found");
    },

    /** A change made at the service behind Kassa's back (its dashboard, another client). */
    outside(code: string, change: MethodChange): void {
      const method = findMethod(deps.methods(), code);
      if (!method) throw new Error(`the fake has no payment method ${code}`);
      const percent =
        change.surchargePercent === undefined ? undefined : readPercent(change.surchargePercent);
      if (percent && "error" in percent)
        throw new Error(`a surcharge of ${change.surchargePercent}: ${percent.error}`);
      applyChange(method, {
        ...(change.on === undefined ? {} : { on: change.on }),
        ...(percent ? { surchargePercent: percent.percent } : {}),
      });
    },
  };
}

export type MethodDesk = ReturnType<typeof openMethodDesk>;
