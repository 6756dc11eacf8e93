import { z } from "zod";

/** A plain_text_input's state in view.state.values. */
export const textValue = z.object({ value: z.string().nullish() });
/** A static_select's or radio_buttons' state in view.state.values. */
export const selectValue = z.object({ selected_option: z.object({ value: z.string() }).nullish() });
