import type { PaymentMethod } from "./model.js";

/** Which methods a `/paymethods` message shows. */
export type MethodFilter =
  | { kind: "all" }
  | { kind: "enabled" }
  | { kind: "disabled" }
  | { kind: "text"; text: string };

/** The filter as the user would type it again (kept in button values). */
export function filterText(filter: MethodFilter): string {
  return filter.kind === "text" ? filter.text : filter.kind;
}

/** The methods a filter keeps, in the order given: all, enabled, disabled, or a part of the code, name or currency. */
export function filterMethods(
  methods: readonly PaymentMethod[],
  filter: MethodFilter,
): readonly PaymentMethod[] {
  switch (filter.kind) {
    case "all":
      return methods;
    case "enabled":
      return methods.filter((method) => method.enabled);
    case "disabled":
      return methods.filter((method) => !method.enabled);
    case "text": {
      const needle = filter.text.toLowerCase();
      return methods.filter((method) =>
        [method.code, method.name, method.currency].some((value) => value.toLowerCase().includes(needle)),
      );
    }
  }
}
