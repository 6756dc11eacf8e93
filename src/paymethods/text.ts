import type { UsageReason } from "../i18n/help.js";
import type { MethodFilter } from "../payments/method-filter.js";

export type PaymethodsRequest =
  | { kind: "help" }
  | { kind: "list"; filter: MethodFilter }
  /** Switch a method on or off at the service (admins; a confirmation first). */
  | { kind: "switch"; code: string; on: boolean }
  /** Set the surcharge payers pay with a method, percent as typed (a plain decimal string). */
  | { kind: "surcharge"; code: string; percent: string }
  /** The methods watch's form, or the watch turned off. */
  | { kind: "watch" }
  | { kind: "watch_off" }
  | { kind: "invalid"; reason: UsageReason; input: string };

export const FILTER_MAX_LENGTH = 40;

/** A method's code as the service spells them: letters, digits, `_` and `-`; read upper-case. */
const CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;
/** A surcharge: 0 to 100 with at most two decimals ("2", "2.5", "0,75"). */
const PERCENT = /^(\d{1,3})(?:[.,](\d{1,2}))?%?$/;

/**
 * `/paymethods [all|enabled|disabled|<part of a code, name or currency>|help]`, and the switches:
 * `off CODE`, `on CODE`, `surcharge CODE PERCENT`, `watch`, `watch off`.
 */
export function parsePaymethodsText(text: string): PaymethodsRequest {
  const trimmed = text.trim().replace(/\s+/g, " ");
  if (/^(help|\?|-h|--help)$/i.test(trimmed)) return { kind: "help" };
  if (trimmed === "" || /^all$/i.test(trimmed)) return { kind: "list", filter: { kind: "all" } };
  if (/^enabled$/i.test(trimmed)) return { kind: "list", filter: { kind: "enabled" } };
  if (/^disabled$/i.test(trimmed)) return { kind: "list", filter: { kind: "disabled" } };
  const words = trimmed.split(" ");
  const verb = words[0]?.toLowerCase();
  if (verb === "watch") return parseWatch(words.slice(1), trimmed);
  if (verb === "on" || verb === "off") return parseSwitch(verb, words.slice(1), trimmed);
  if (verb === "surcharge") return parseSurcharge(words.slice(1), trimmed);
  if (trimmed.length > FILTER_MAX_LENGTH) {
    return { kind: "invalid", reason: "filter_long", input: trimmed };
  }
  return { kind: "list", filter: { kind: "text", text: trimmed } };
}

function parseWatch(rest: string[], input: string): PaymethodsRequest {
  if (rest.length === 0) return { kind: "watch" };
  if (rest.length === 1 && rest[0]?.toLowerCase() === "off") return { kind: "watch_off" };
  return { kind: "invalid", reason: "watch_arg", input };
}

function parseSwitch(verb: "on" | "off", rest: string[], input: string): PaymethodsRequest {
  const code = rest.length === 1 ? rest[0] : undefined;
  if (!code || !CODE.test(code)) return { kind: "invalid", reason: "switch_arg", input };
  return { kind: "switch", code: code.toUpperCase(), on: verb === "on" };
}

function parseSurcharge(rest: string[], input: string): PaymethodsRequest {
  const [code, typed] = rest;
  const percent = rest.length === 2 && typed ? PERCENT.exec(typed) : null;
  if (!code || !CODE.test(code) || !percent) return { kind: "invalid", reason: "surcharge_arg", input };
  const whole = Number(percent[1]);
  const fraction = percent[2] ?? "";
  if (whole > 100 || (whole === 100 && /[1-9]/.test(fraction)))
    return { kind: "invalid", reason: "surcharge_arg", input };
  // Exact as typed (a comma read as the point), without leading zeros: "05.50" is "5.50".
  const value = fraction ? `${whole}.${fraction}` : String(whole);
  return { kind: "surcharge", code: code.toUpperCase(), percent: value };
}
