import { z } from "zod";

/** A plain_text_input's state in view.state.values. */
export const textValue = z.object({ value: z.string().nullish() });
/** A static_select's or radio_buttons' state in view.state.values. */
export const selectValue = z.object({ selected_option: z.object({ value: z.string() }).nullish() });

/** A view's private_metadata as JSON; undefined when it is not JSON (then the form is out of date). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
