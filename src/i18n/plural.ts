import { type Lang, LOCALES } from "./lang.js";
import { formatDecimalIn } from "./numbers.js";

/** A word's forms by CLDR plural category: English uses one/other, Russian one/few/many (and other for fractions). */
export type PluralForms = { one: string; few?: string; many?: string; other: string };

const rules = new Map<Lang, Intl.PluralRules>();

/** The form for `count`: 1 счёт, 2 счёта, 5 счетов, 21 счёт; 1 invoice, 2 invoices. */
export function pluralForm(lang: Lang, count: number, forms: PluralForms): string {
  let rule = rules.get(lang);
  if (!rule) {
    rule = new Intl.PluralRules(LOCALES[lang]);
    rules.set(lang, rule);
  }
  const category = rule.select(count);
  return (
    (category === "one" || category === "few" || category === "many" ? forms[category] : undefined) ??
    forms.other
  );
}

/** "5 счетов", "1 invoice": the count and its form. */
export function counted(lang: Lang, count: number, forms: PluralForms): string {
  return `${formatDecimalIn(lang, String(count))} ${pluralForm(lang, count, forms)}`;
}
