import { z } from "zod";
import { CREATE_FIELDS } from "../../blocks/invoice-create.js";
import { selectValue, textValue } from "./form.js";

// The create form's private metadata and values, as its submission reads them (create-invoice.ts).

/** `r`: the register's name; absent on main's forms and on those opened before registers. */
export const originSchema = z.object({
  t: z.string().min(1),
  c: z.string().regex(/^[CGDU][A-Z0-9]+$/),
  r: z.string().min(1).max(100).optional(),
});
/** The parts of view.state.values the modal defines, as validateCreateInput reads them. */
export const formSchema = z
  .object({
    [CREATE_FIELDS.amount]: z.object({ value: textValue }),
    [CREATE_FIELDS.currency]: z.object({ value: selectValue }),
    [CREATE_FIELDS.lifetime]: z.object({ value: textValue }),
    [CREATE_FIELDS.description]: z.object({ value: textValue }).optional(),
    [CREATE_FIELDS.customer]: z.object({ value: textValue }).optional(),
    [CREATE_FIELDS.email]: z.object({ value: textValue }).optional(),
    [CREATE_FIELDS.extra]: z.object({ value: textValue }).optional(),
    [CREATE_FIELDS.method]: z.object({ value: selectValue }).optional(),
    [CREATE_FIELDS.remind]: z.object({ value: selectValue }).optional(),
  })
  .transform((values) => ({
    amount: values[CREATE_FIELDS.amount].value.value,
    currency: values[CREATE_FIELDS.currency].value.selected_option?.value,
    lifetime: values[CREATE_FIELDS.lifetime].value.value,
    description: values[CREATE_FIELDS.description]?.value.value,
    customer: values[CREATE_FIELDS.customer]?.value.value,
    email: values[CREATE_FIELDS.email]?.value.value,
    extra: values[CREATE_FIELDS.extra]?.value.value,
    requiredMethod: values[CREATE_FIELDS.method]?.value.selected_option?.value,
    remind: values[CREATE_FIELDS.remind]?.value.selected_option?.value,
  }));
