/**
 * What a method switch ends in (`/paymethods off|on|surcharge`, the alert's Switch off, the
 * confirmation): the confirmation asked for, or confirmed; `result` what it ended in (confirm,
 * already, last_on, done, refused, unsure, under_way, repeat, failed), with a reference when it failed
 * on a fault. The use case records the acts; a refused person is `not_allowed`.
 */
export type MethodSwitchOutcome = {
  outcome: "method_switch";
  step: "asked" | "confirmed";
  result: string;
  reference?: string;
  err?: unknown;
};
