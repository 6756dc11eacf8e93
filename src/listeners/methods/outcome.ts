/** What the payment methods' buttons and commands end in (besides the kinds every handler has). */
export type MethodOutcome =
  /** A method alert's Snooze: its alerts snoozed, said in the alert's thread (or to the presser alone). */
  | { outcome: "method_snoozed"; method: string; snoozeSaid: "thread" | "ephemeral" }
  /** A Snooze while the register's watch is off: nothing snoozed. */
  | { outcome: "method_watch_off"; method: string };
