import { readWatch } from "../method-watch/state.js";
import { BusyError, NotConnectedError, ServiceError } from "../payments/errors.js";
import type { PaymentMethod } from "../payments/model.js";
import { boardOnFirstUse } from "../store/claims/family.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { KeyvStore } from "../store/connection.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import type { Confirmed, MethodSwitchDeps, Prepared, SwitchTarget } from "./switch-model.js";
import {
  alreadyBy,
  type ClaimStep,
  type Confirmation,
  claimStep,
  dropPending,
  editOf,
  finished,
  lastIncomingOn,
  lastOf,
  markedUnsure,
  shows,
} from "./switch-rules.js";
import { recordSwitch, settleUnsure, stateOf, switchNotes } from "./switch-settle.js";
import {
  changeSwitch,
  MethodSwitchRecords,
  type MethodSwitchState,
  readSwitch,
  type SwitchWant,
} from "./switch-state.js";

// Switching a payment method on or off, or setting its surcharge, at the service, from Kassa (issue
// 50 item 3): a fresh read before the confirmation; on confirmation one `method/edit` whatever the
// replicas or clicks (the record's pending by compare-and-set: the winner sends), then the method
// read again and what the service shows reported and recorded, never what was asked.

/** Switches as commands, buttons and forms use them, and the records the method list shows. */
export class MethodSwitches {
  constructor(private readonly deps: MethodSwitchDeps) {}

  /** Before the confirmation: the method read afresh, and whether there is anything to confirm. */
  async prepare(target: SwitchTarget, want: SwitchWant): Promise<Prepared> {
    const method = await this.readNow(target);
    if (!method) return { kind: "unknown" };
    return this.checked(target, method, want, await this.record(target));
  }

  /**
   * A confirmation submitted: one edit sent, by whoever takes the record first; then the method read
   * again and what the service shows reported (see Confirmed). A failure before anything was sent
   * leaves the record as it was and is thrown.
   */
  async confirm(target: SwitchTarget, confirmation: Confirmation): Promise<Confirmed> {
    // A "not sure" switch of another confirmation is settled by a read first, if it can be.
    const pending = (await this.record(target)).pending;
    if (pending?.state === "unsure" && pending.id !== confirmation.id) await this.readNow(target);
    const now = this.deps.clock.now();
    const step = await changeSwitch<ClaimStep>(
      await this.deps.board(),
      target.registerKey,
      target.code,
      (current) => {
        const claim = claimStep(current, confirmation, now);
        return claim.kind === "claimed" ? { next: claim.next, result: claim } : { result: claim };
      },
    );
    if (step.kind === "repeat") return { kind: "repeat", last: step.last };
    if (step.kind === "under_way") return { kind: "under_way", by: step.by };
    if (step.kind === "unsure")
      return { kind: "unsure", method: await this.readNow(target), accepted: false };
    // Still not shown within its ten minutes: this confirmation takes its place, and it is given up.
    if (step.replaced)
      await recordSwitch(this.deps, { ...target, ...step.replaced, outcome: "failed", reason: "unsure" });
    return this.send(target, confirmation);
  }

  /**
   * The method list's notes on `methods` (who switched each in Kassa, and when; a switch under way).
   * A list read after a switch was answered "not sure" (`readAt`) settles it first, as any read does.
   */
  async notes(registerKey: string, methods: readonly PaymentMethod[], readAt: number) {
    const board = await this.deps.board();
    return switchNotes({ ...this.deps, board }, registerKey, methods, { readAt, now: this.deps.clock.now() });
  }

  /** A register disconnected or uninstalled: every method's switch record is forgotten. */
  async forget(registerKey: string): Promise<void> {
    await new MethodSwitchRecords(this.deps.board).forget(registerKey);
  }

  /** A fresh read of a method settles its "not sure" switch (see settleUnsure). */
  async settle(target: SwitchTarget, method: PaymentMethod | undefined): Promise<void> {
    const board = await this.deps.board();
    await settleUnsure(
      { ...this.deps, board },
      target.registerKey,
      target.code,
      method,
      this.deps.clock.now(),
    );
  }

  /** The read before sending; then the one edit, and the read after it. */
  private async send(target: SwitchTarget, confirmation: Confirmation): Promise<Confirmed> {
    const { want, id } = confirmation;
    const checked = await this.checkedBeforeSending(target, confirmation);
    if (checked.kind !== "confirm") {
      await this.write(target, (current) => finished(current, id));
      const reason = "the last incoming method on";
      if (checked.kind === "last_on")
        await recordSwitch(this.deps, { ...target, ...confirmation, outcome: "refused", reason });
      return checked;
    }
    try {
      await this.deps.payments.editMethod(target.registerKey, editOf(target.code, want));
    } catch (error) {
      if (error instanceof BusyError || error instanceof NotConnectedError) {
        await this.write(target, (current) => dropPending(current, id));
        throw error;
      }
      if (!(error instanceof ServiceError)) return this.unsure(target, confirmation, checked.method, error);
      await this.write(target, (current) => finished(current, id));
      const reason = error.messages.join("; ") || "refused";
      await recordSwitch(this.deps, { ...target, ...confirmation, outcome: "refused", reason });
      return { kind: "refused", messages: error.messages, method: checked.method };
    }
    return this.afterSent(target, confirmation, checked.method);
  }

  /** The method read under the pending switch; a failure leaves the record as it was, and is thrown. */
  private async checkedBeforeSending(target: SwitchTarget, confirmation: Confirmation): Promise<Prepared> {
    try {
      const before = await this.deps.payments.methodNow(target.registerKey, target.code);
      if (!before) return { kind: "unknown" };
      return await this.checked(target, before, confirmation.want, await this.record(target));
    } catch (error) {
      await this.write(target, (current) => dropPending(current, confirmation.id));
      throw error;
    }
  }

  /** The edit was accepted: what the service shows now decides. */
  private async afterSent(
    target: SwitchTarget,
    confirmation: Confirmation,
    before: PaymentMethod,
  ): Promise<Confirmed> {
    const method = await this.deps.payments.methodNow(target.registerKey, target.code).catch(() => undefined);
    if (!method || !shows(method, confirmation.want)) return this.unsure(target, confirmation, before);
    const last = lastOf(confirmation, method, this.deps.clock.now());
    await this.write(target, (current) => finished(current, confirmation.id, last));
    await recordSwitch(this.deps, {
      ...target,
      ...confirmation,
      outcome: "done",
      before: stateOf(before),
      after: stateOf(method),
    });
    return { kind: "done", method, before };
  }

  /**
   * Sent without a clear answer (`error`), or accepted and not shown by the read after it (no
   * `error`): pending becomes "not sure"; after a lost answer one more read may still settle it.
   */
  private async unsure(
    target: SwitchTarget,
    confirmation: Confirmation,
    before: PaymentMethod,
    error?: unknown,
  ): Promise<Confirmed> {
    const accepted = error === undefined;
    if (!accepted)
      this.deps.logger.warn({ err: error, code: target.code }, "method edit without a clear answer");
    await this.write(target, (current) => markedUnsure(current, confirmation.id));
    const method = accepted ? undefined : await this.readNow(target).catch(() => undefined);
    if (method && (await this.record(target)).last?.id === confirmation.id)
      return { kind: "done", method, before };
    return { kind: "unsure", method, accepted };
  }

  /** A fresh read of the method, settling its "not sure" switch if it has one. */
  private async readNow(target: SwitchTarget): Promise<PaymentMethod | undefined> {
    const method = await this.deps.payments.methodNow(target.registerKey, target.code);
    await this.settle(target, method);
    return method;
  }

  /** What a read shows against what is wanted: already so, the last method on, or to confirm. */
  private async checked(
    target: SwitchTarget,
    method: PaymentMethod,
    want: SwitchWant,
    record: MethodSwitchState,
  ): Promise<Prepared> {
    if (shows(method, want)) {
      const seen = await this.seen(target);
      return { kind: "already", method, by: alreadyBy(record, method, want, seen) };
    }
    if (want.on === false) {
      const { methods } = await this.deps.payments.methods(target.registerKey);
      const listed = methods.map((one) => (one.code === method.code ? method : one));
      if (lastIncomingOn(listed, method.code)) return { kind: "last_on", method };
    }
    return { kind: "confirm", method };
  }

  /** The method as the methods watch last saw it (undefined: no watch, or not seen). */
  private async seen(target: SwitchTarget) {
    const watch = await readWatch(await this.deps.board(), target.registerKey);
    const seen = watch.seen?.methods[target.code];
    return watch.seen && seen ? { at: watch.seen.at, ...seen } : undefined;
  }

  private async record(target: SwitchTarget): Promise<MethodSwitchState> {
    return readSwitch(await this.deps.board(), target.registerKey, target.code);
  }

  /** A change of the record by compare-and-set (`change` undefined: nothing to write). */
  private async write(
    target: SwitchTarget,
    change: (current: MethodSwitchState) => MethodSwitchState | undefined,
  ): Promise<void> {
    await changeSwitch(await this.deps.board(), target.registerKey, target.code, (current) => {
      const next = change(current);
      return next ? { next, result: undefined } : { result: undefined };
    });
  }
}

/** The switches on the store's claim board (opened at first use). */
export function methodSwitchesFor(
  store: Pick<KeyvStore, "native">,
  timeoutMs: number,
  deps: Omit<MethodSwitchDeps, "board">,
): MethodSwitches {
  return new MethodSwitches({
    ...deps,
    board: boardOnFirstUse(() => openClaimBoard(store, DEFAULT_PREFIX, timeoutMs)),
  });
}
