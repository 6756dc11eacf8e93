/** What `/paymethods`'s watch and switches, their forms and buttons end in (besides the common kinds). */
export type MethodsOutcome =
  /** `/paymethods watch off`: the register's methods watch turned off, or it was not on. */
  | { outcome: "method_watch_off"; was: "on" | "off" }
  /** The methods watch form saved (turned on, or changed); its announcement posted, or why not. */
  | {
      outcome: "method_watch_saved";
      result: "on" | "changed";
      announced: "posted" | "not_in_channel" | "failed";
    };
