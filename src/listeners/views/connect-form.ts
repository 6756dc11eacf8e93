import { z } from "zod";
import type { BalanceVisibility } from "../../blocks/balance.js";
import { CONNECT_FIELDS } from "../../blocks/connect-modal.js";
import type { ReplyVisibility } from "../../blocks/invoice.js";
import { CONNECT_TEXT } from "../../i18n/connect.js";
import { type Lang, langSchema } from "../../i18n/lang.js";
import type { ApiVersion } from "../../payments/model.js";
import { MAIN_REGISTER, registerKey, registerNameSchema } from "../../store/registers.js";
import type { ListenerDeps } from "../deps.js";
import { selectValue, textValue } from "./form.js";

// What the connect modal carries and what its submission holds, read into what Kassa saves.

/** Where the form was opened, its workspace and the register it edits (main when left out). */
export const originSchema = z.object({
  from: z.enum(["command", "home"]),
  t: z.string().min(1),
  r: z.string().max(20).optional(),
});
const whoMay = (choice: string | undefined): BalanceVisibility | undefined =>
  choice === "everyone" || choice === "admins" ? choice : undefined;
/** The parts of view.state.values the modal defines, read into what Kassa saves; the rest is ignored. */
export const formSchema = z
  .object({
    // Absent from forms opened before registers had names: the register the form was opened for.
    [CONNECT_FIELDS.register]: z.object({ value: textValue }).optional(),
    // Absent from forms opened before registers could be kept to channels: the stored choice is kept.
    [CONNECT_FIELDS.channels]: z
      .object({ value: z.object({ selected_conversations: z.array(z.string().max(40)).max(100).nullish() }) })
      .optional(),
    [CONNECT_FIELDS.login]: z.object({ value: textValue }),
    [CONNECT_FIELDS.secret]: z.object({ value: textValue }),
    // Absent from forms opened before Secret 2 was asked for: the stored one is kept.
    [CONNECT_FIELDS.salt]: z.object({ value: textValue }).optional(),
    [CONNECT_FIELDS.apiVersion]: z.object({ value: selectValue }),
    [CONNECT_FIELDS.visibility]: z.object({ value: selectValue }),
    // Absent from forms opened before the setting existed: the stored choice is kept.
    [CONNECT_FIELDS.balanceVisibility]: z.object({ value: selectValue }).optional(),
    [CONNECT_FIELDS.invoiceCreators]: z.object({ value: selectValue }).optional(),
    [CONNECT_FIELDS.workflowCreates]: z.object({ value: selectValue }).optional(),
    [CONNECT_FIELDS.language]: z.object({ value: selectValue }).optional(),
  })
  .transform((values) => ({
    register: values[CONNECT_FIELDS.register]?.value.value?.trim() ?? "",
    channels: values[CONNECT_FIELDS.channels]
      ? (values[CONNECT_FIELDS.channels]?.value.selected_conversations ?? [])
      : undefined,
    login: values[CONNECT_FIELDS.login].value.value?.trim() ?? "",
    typedSecret: values[CONNECT_FIELDS.secret].value.value?.trim() ?? "",
    // Blank keeps the stored Secret 2 (undefined); a typed one replaces it.
    salt: values[CONNECT_FIELDS.salt]?.value.value?.trim() || undefined,
    apiVersion: (values[CONNECT_FIELDS.apiVersion].value.selected_option?.value === "v3"
      ? "v3"
      : "v2") as ApiVersion,
    visibility: (values[CONNECT_FIELDS.visibility].value.selected_option?.value === "private"
      ? "private"
      : "channel") as ReplyVisibility,
    balanceVisibility: whoMay(values[CONNECT_FIELDS.balanceVisibility]?.value.selected_option?.value),
    invoiceCreators: whoMay(values[CONNECT_FIELDS.invoiceCreators]?.value.selected_option?.value),
    workflowCreates: z
      .enum(["off", "on"])
      .optional()
      .catch(undefined)
      .parse(values[CONNECT_FIELDS.workflowCreates]?.value.selected_option?.value),
    // Absent from forms opened before the choice existed: the stored language is kept.
    language: langSchema
      .optional()
      .catch(undefined)
      .parse(values[CONNECT_FIELDS.language]?.value.selected_option?.value),
  }));
export type ConnectValues = z.infer<typeof formSchema>;

/** The register a connect form saves to: its name, and its key in the store. */
export type FormRegister = { name: string; key: string };

/**
 * The register a submission connects: the name typed (blank: the one the form was opened for, else
 * main). A new name adds a register, once main is connected: a workspace's first is always main.
 */
export async function registerOfForm(
  deps: Pick<ListenerDeps, "stores">,
  team: string,
  typed: string | undefined,
  lang: Lang,
): Promise<FormRegister | { error: string }> {
  const parsed = registerNameSchema.safeParse(typed || MAIN_REGISTER);
  if (!parsed.success) return { error: CONNECT_TEXT[lang].registerNameInvalid };
  const name = parsed.data;
  if (name !== MAIN_REGISTER && !(await deps.stores.credentials.info(team).catch(() => undefined)))
    return { error: CONNECT_TEXT[lang].registerFirstIsMain };
  return { name, key: registerKey(team, name) };
}
