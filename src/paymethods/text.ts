import type { UsageReason } from "../i18n/help.js";
import type { MethodFilter } from "../payments/method-filter.js";

export type PaymethodsRequest =
  | { kind: "help" }
  | { kind: "list"; filter: MethodFilter }
  | { kind: "invalid"; reason: UsageReason; input: string };

export const FILTER_MAX_LENGTH = 40;

/** `/paymethods [all|enabled|disabled|<part of a code, name or currency>|help]`. */
export function parsePaymethodsText(text: string): PaymethodsRequest {
  const trimmed = text.trim().replace(/\s+/g, " ");
  if (/^(help|\?|-h|--help)$/i.test(trimmed)) return { kind: "help" };
  if (trimmed === "" || /^all$/i.test(trimmed)) return { kind: "list", filter: { kind: "all" } };
  if (/^enabled$/i.test(trimmed)) return { kind: "list", filter: { kind: "enabled" } };
  if (/^disabled$/i.test(trimmed)) return { kind: "list", filter: { kind: "disabled" } };
  if (trimmed.length > FILTER_MAX_LENGTH) {
    return { kind: "invalid", reason: "filter_long", input: trimmed };
  }
  return { kind: "list", filter: { kind: "text", text: trimmed } };
}
