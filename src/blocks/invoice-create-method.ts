import type { types } from "@slack/bolt";
import type { PaymentMethod } from "../payments/model.js";
import { selectInput, selectOption } from "./form.js";

/**
 * The create form's method to pay with, where the register's list was read (a drop-down keeps the
 * first 100); none without a list.
 */
export function methodSelect(
  block: string,
  methods: readonly PaymentMethod[] | undefined,
  t: { method: string; methodHint: string; anyMethod: string },
): types.KnownBlock[] {
  if (!methods || methods.length === 0) return [];
  return [
    selectInput({
      block,
      optional: true,
      label: t.method,
      hint: t.methodHint,
      placeholder: t.anyMethod,
      options: methods.map((method) => selectOption(`${method.name} (${method.currency})`, method.code)),
    }),
  ];
}
