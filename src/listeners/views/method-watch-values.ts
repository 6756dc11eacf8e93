import { z } from "zod";
import { METHOD_WATCH_FIELDS } from "../../blocks/method-watch-form.js";
import type { WatchFormInput } from "../../method-watch/form-input.js";
import { selectValue, textValue } from "./form.js";

/** A people picker's state: Slack user ids (checked again by the settings' schema). */
const chosenUsers = z.object({ selected_users: z.array(z.string().max(40)).max(100).nullish() });
/** A conversations_select's state. */
const chosenConversation = z.object({ selected_conversation: z.string().max(40).nullish() });

const F = METHOD_WATCH_FIELDS;
const text = z.object({ value: textValue }).optional();

/** The parts of view.state.values the watch form defines (the silence figures may be left empty). */
const formSchema = z.object({
  [F.channel]: z.object({ value: chosenConversation }),
  [F.mention]: z.object({ value: chosenUsers }).optional(),
  [F.sharePercent]: text,
  [F.minInvoices]: text,
  [F.windowMinutes]: text,
  [F.silence]: z.object({ value: selectValue }),
  [F.factor]: text,
  [F.floorHours]: text,
  [F.hours]: text,
});

/** What a submitted watch form says, as typed; undefined when these are not its values (an old form). */
export function readMethodWatchForm(values: unknown): WatchFormInput | undefined {
  const form = formSchema.safeParse(values);
  if (!form.success) return undefined;
  const data = form.data;
  const typed = (
    block: (typeof F)["sharePercent" | "minInvoices" | "windowMinutes" | "factor" | "floorHours" | "hours"],
  ) => data[block]?.value.value ?? "";
  return {
    channel: data[F.channel].value.selected_conversation ?? undefined,
    mention: data[F.mention]?.value.selected_users ?? [],
    sharePercent: typed(F.sharePercent),
    minInvoices: typed(F.minInvoices),
    windowMinutes: typed(F.windowMinutes),
    silence: data[F.silence].value.selected_option?.value,
    factor: typed(F.factor),
    floorHours: typed(F.floorHours),
    hours: typed(F.hours),
  };
}
