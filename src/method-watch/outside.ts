import { Big } from "../payments/decimal.js";
import type { MethodSwitchState, SwitchWant } from "../paymethods/switch-state.js";
import { MAX_METHODS_KEPT, type MethodWatchState, type SeenMethod } from "./state.js";

// Changes made outside Kassa (pure, tested as a table). Each check compares the method list with the
// one last seen: which methods are on and their surcharges. A change is Kassa's when the method's
// switch record shows it: its `last` switch shows exactly the state now seen and came after the list
// was last seen, or a switch being sent (or sent without a clear answer) wants exactly what changed.
// Anything else is news. The first read of a register only notes what is there; a method new to the
// list, or gone from it, is not news.

/** A method as the check reads it now. */
export type MethodNow = { code: string; name: string; on: boolean; surcharge: string };

/** A change Kassa did not make: the method, and its state before and after. */
export type OutsideChange = { code: string; name: string; before: SeenMethod; after: SeenMethod };

type Seen = NonNullable<MethodWatchState["seen"]>;

const MAX_PERCENT = new Big(1000);

/** A surcharge as `seen` keeps it: a plain decimal, 8 places at most; undefined when it is not one. */
export function percentOf(text: string): string | undefined {
  try {
    const value = new Big(text).round(8);
    if (value.lt(0) || value.gte(MAX_PERCENT)) return undefined;
    return value.toFixed();
  } catch {
    return undefined;
  }
}

const samePercent = (a: string, b: string) => new Big(a).eq(new Big(b));
const sameState = (a: SeenMethod, b: SeenMethod) => a.on === b.on && samePercent(a.surcharge, b.surcharge);

/** The methods whose state differs from what was seen (their switch records are read before deciding). */
export function changedCodes(seen: Seen | undefined, methods: readonly MethodNow[]): string[] {
  if (!seen) return [];
  return methods.flatMap((method) => {
    const before = seen.methods[method.code];
    const after = percentOf(method.surcharge);
    if (!before || after === undefined) return [];
    return sameState(before, { on: method.on, surcharge: after }) ? [] : [method.code];
  });
}

/** Whether the change from `before` to `after`, seen since `seenAt`, is one Kassa made. */
export function isKassaChange(
  record: MethodSwitchState | undefined,
  seenAt: number,
  before: SeenMethod,
  after: SeenMethod,
): boolean {
  if (!record) return false;
  const { last, pending } = record;
  if (last && last.at > seenAt && sameState({ on: last.on, surcharge: last.surcharge }, after)) return true;
  return pending !== undefined && wantsExactly(pending.want, before, after);
}

/** Every field that changed is one the switch asked for, with the value now seen. */
function wantsExactly(want: SwitchWant, before: SeenMethod, after: SeenMethod): boolean {
  const onChanged = before.on !== after.on;
  const surchargeChanged = !samePercent(before.surcharge, after.surcharge);
  if (onChanged && want.on !== after.on) return false;
  if (surchargeChanged && (want.surcharge === undefined || !samePercent(want.surcharge, after.surcharge)))
    return false;
  return onChanged || surchargeChanged;
}

/** What the check writes down as seen now, and the changes to tell (none on the first read). */
export function compareSeen(
  seen: Seen | undefined,
  methods: readonly MethodNow[],
  records: ReadonlyMap<string, MethodSwitchState>,
  now: number,
): { seen: Seen; news: OutsideChange[] } {
  const next: Seen["methods"] = {};
  const news: OutsideChange[] = [];
  for (const method of methods.slice(0, MAX_METHODS_KEPT)) {
    const surcharge = percentOf(method.surcharge);
    const before = seen?.methods[method.code];
    // A surcharge that cannot be read keeps what was seen of it (nothing to compare).
    const after = surcharge === undefined ? before : { on: method.on, surcharge };
    if (!after) continue;
    next[method.code] = after;
    if (!seen || !before || sameState(before, after)) continue;
    if (isKassaChange(records.get(method.code), seen.at, before, after)) continue;
    news.push({ code: method.code, name: method.name, before, after });
  }
  return { seen: { at: now, methods: next }, news };
}
