/** What `/payout`, its forms and its card's buttons end in (besides the kinds every handler has). */
export type PayoutOutcome =
  /** Payouts asked of a register without Secret 2 (nothing opened or saved). */
  | { outcome: "no_secret2" }
  /** A payout requested: its card posted for the approvers (the use case recorded the act). */
  | { outcome: "payout_requested" }
  /** A request refused (the policy, a cap, the service's own refusal): nothing requested. */
  | { outcome: "payout_refused"; refusal: string }
  /** A refund refused before its form or its quote (not paid, nothing left, more than is left). */
  | { outcome: "refund_refused"; refusal: string }
  /** Approve, Reject or Cancel given: what the request became. */
  | { outcome: "payout_voted"; result: string }
  /**
   * A click that changed nothing: `by` slack when the listener refused it (the person, the wallet's
   * ending, a stale button: recorded as a refused act then), kassa when the vote did (recorded there).
   */
  | { outcome: "payout_vote_refused"; refusal: string; by: "kassa" | "slack" }
  /** `/payout recipients`: how many were listed. */
  | { outcome: "recipients_listed"; count: number }
  /** `/payout recipient remove LABEL`: the question with Remove shown. */
  | { outcome: "remove_asked" }
  /** A recipient added (its card posted), confirmed (`result`: confirmed or trusted) or removed. */
  | { outcome: "recipient_added" }
  | { outcome: "recipient_confirmed"; result: string }
  | { outcome: "recipient_removed" }
  /**
   * Adding, confirming or removing refused: `recorded` when the use case wrote the refusal down
   * already (a confirmation of a recipient it found), else the listener's answer records it.
   */
  | { outcome: "recipient_refused"; refusal: string; act: "add" | "confirm" | "remove"; recorded: boolean }
  /** A batch asked for: checked, quoted, its card posted (the use case recorded the act). */
  | { outcome: "batch_requested" }
  /** A batch's Approve, Reject, Drop refused rows or Cancel batch given: what the batch became. */
  | { outcome: "batch_decided"; result: string }
  /**
   * A click on a batch that changed nothing: `by` slack when the listener refused it (recorded as a
   * refused act then), kassa when the batch's use case did (recorded there).
   */
  | {
      outcome: "batch_refused";
      refusal: string;
      act: "approve" | "reject" | "drop" | "cancel";
      by: "kassa" | "slack";
    };
