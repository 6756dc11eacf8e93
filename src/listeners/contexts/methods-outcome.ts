/** What `/paymethods`'s watch and switches, their forms and buttons end in (besides the common kinds). */
export type MethodsOutcome =
  /** A method alert's Snooze: its alerts snoozed, said in the alert's thread (or to the presser alone). */
  | { outcome: "method_snoozed"; method: string; snoozeSaid: "thread" | "ephemeral" }
  /** A Snooze while the register's watch is off: nothing snoozed. */
  | { outcome: "method_snooze_watch_off"; method: string }
  /** `/paymethods watch off`: the register's methods watch turned off, or it was not on. */
  | { outcome: "method_watch_off"; was: "on" | "off" }
  /** The methods watch form saved (turned on, or changed); its announcement posted, or why not. */
  | {
      outcome: "method_watch_saved";
      result: "on" | "changed";
      announced: "posted" | "not_in_channel" | "failed";
    };
