import type { MethodEdit, PaymentMethod } from "../payments/model.js";
import type { ClaimBoard } from "../store/claims/index.js";
import type { Clock } from "../util/clock.js";
import type { AlreadyBy, LastSwitch } from "./switch-rules.js";
import type { SwitchRecordDeps } from "./switch-settle.js";

// What switching a method asks of the payment service and what it answers a person with (switch.ts).

/** What switching uses of WorkspacePayments. */
export type MethodSwitchPayments = {
  /** One `method/edit`, never retried once it may have arrived; ServiceError: refused; else not sure. */
  editMethod(registerKey: string, edit: MethodEdit): Promise<void>;
  /** A fresh read of one method (undefined: not listed); the cached list is refreshed with it. */
  methodNow(registerKey: string, code: string): Promise<PaymentMethod | undefined>;
  methods(registerKey: string, options?: { fresh?: boolean }): Promise<{ methods: PaymentMethod[] }>;
};

export type MethodSwitchDeps = SwitchRecordDeps & {
  board: () => Promise<ClaimBoard>;
  payments: MethodSwitchPayments;
  clock: Pick<Clock, "now">;
};

/** A method of a register (its key, and the method's code). */
export type SwitchTarget = { registerKey: string; code: string };

/** What the method shows before a confirmation is asked for. */
export type Prepared =
  | { kind: "confirm"; method: PaymentMethod }
  | { kind: "already"; method: PaymentMethod; by: AlreadyBy }
  /** Switching it off would leave payers no incoming method. */
  | { kind: "last_on"; method: PaymentMethod }
  | { kind: "unknown" };

/** What a confirmation ended in. */
export type Confirmed =
  | Exclude<Prepared, { kind: "confirm" }>
  /** The service shows what was asked (`before`: as read before sending). */
  | { kind: "done"; method: PaymentMethod; before: PaymentMethod }
  /** This confirmation was handled before (`last`: its switch, when it is still the last). */
  | { kind: "repeat"; last?: LastSwitch | undefined }
  | { kind: "under_way"; by: string }
  /** The service refused: its own words; nothing changed. */
  | { kind: "refused"; messages: string[]; method: PaymentMethod }
  /** Sent, not confirmed (a time-out, a 5xx, or a read not showing it yet): the next read decides. */
  | { kind: "unsure"; method?: PaymentMethod | undefined; accepted: boolean };
