import {
  CREATE_CURRENCIES,
  CREATE_FIELDS,
  DEFAULT_LIFETIME_MINUTES,
  validateCreateInput,
} from "../blocks/invoice-create.js";
import { REMIND_BLOCK, REMIND_CHOICES } from "../blocks/invoice-create-remind.js";
import type { Lang } from "../i18n/lang.js";
import { STEPS_TEXT } from "../i18n/steps.js";
import type { InvoiceDraft } from "../payments/model.js";
import type { CreateInputs } from "./inputs.js";

// Create invoice's inputs checked as `/invoice new`'s form checks them, with the step's own words.

/** The invoice a run asks for: its draft, for whom, and its reminder (minutes before it expires). */
export type CheckedInputs = {
  draft: InvoiceDraft;
  customer?: string | undefined;
  remind?: number | undefined;
};

/**
 * The reminder as the step's input gives it: `1h` or `6h` (or 60 or 360 minutes); empty, 0 or `off`
 * for none. Undefined: none asked; null: not one of these (said back, never taken as none).
 */
function remindChoice(input: string | undefined): string | undefined | null {
  const written = (input ?? "").trim().toLowerCase().replace(/\s+/g, "");
  if (written === "" || written === "0" || written === "off") return undefined;
  const read = /^(\d+)(h|ч|hours?|час(?:а|ов)?)?$/.exec(written);
  const minutes = read ? (read[2] ? Number(read[1]) * 60 : Number(read[1])) : Number.NaN;
  return REMIND_CHOICES.some((choice) => choice > 0 && choice === minutes) ? String(minutes) : null;
}

/** The form's checks, worded for the step's inputs; the amount is never rounded through a float. */
export function checkInputs(
  inputs: CreateInputs,
  lang: Lang,
): ({ ok: true } & CheckedInputs) | { ok: false; problems: string } {
  const t = STEPS_TEXT[lang];
  const remind = remindChoice(inputs.remind);
  const checked = validateCreateInput(
    {
      amount: inputs.amount,
      currency: inputs.currency,
      lifetime: inputs.lifetime_minutes ?? String(DEFAULT_LIFETIME_MINUTES),
      description: inputs.description,
      customer: inputs.customer,
      email: inputs.email,
      remind: remind ?? undefined,
    },
    lang,
  );
  const labels = t.inputLabels;
  const remindProblem =
    remind === null ? [t.input(labels.remind, (inputs.remind ?? "").slice(0, 40), t.remindChoices)] : [];
  if (checked.ok && remindProblem.length === 0) return checked;
  const errors = checked.ok ? {} : checked.errors;
  const problems = [
    [CREATE_FIELDS.amount, labels.amount, inputs.amount],
    [CREATE_FIELDS.currency, labels.currency, inputs.currency],
    [CREATE_FIELDS.lifetime, labels.lifetime, inputs.lifetime_minutes],
    [CREATE_FIELDS.customer, labels.customer, inputs.customer],
    [CREATE_FIELDS.email, labels.email, inputs.email],
    [REMIND_BLOCK, labels.remind, inputs.remind],
  ].flatMap(([field = "", label = "", value]) => {
    const problem = errors[field];
    if (!problem) return [];
    const words = field === CREATE_FIELDS.currency ? t.currencies(CREATE_CURRENCIES.join(", ")) : problem;
    return [t.input(label, (value ?? "").slice(0, 40), words)];
  });
  return { ok: false, problems: [...problems, ...remindProblem].join(" ") };
}
