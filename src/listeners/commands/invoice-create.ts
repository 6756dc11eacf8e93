import type { webApi } from "@slack/bolt";
import { createInvoiceModal, createNotAllowedMessage } from "../../blocks/invoice-create.js";
import { escapeMrkdwn } from "../../blocks/mrkdwn.js";
import { ephemeral } from "../../blocks/replies.js";
import { CREATE_TEXT } from "../../i18n/invoice-create.js";
import type { Lang } from "../../i18n/lang.js";
import { LINK_REMINDERS_TEXT } from "../../i18n/link-reminders.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { NotConnectedError } from "../../payments/errors.js";
import { slackErrorCode } from "../../slack/error.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";
import { mayCreate } from "../workspace/settings.js";
import type { CreatePrefill } from "./invoice-text.js";

/**
 * How long the modal waits for the method list (for the "only this method" choice): a trigger_id
 * lapses 3 s after the command, and the permission check comes first. Without it the modal opens
 * without that field.
 */
export const CREATE_METHODS_BUDGET_MS = 700;

type CreateCommand = {
  lang: Lang;
  teamId: string;
  userId: string;
  enterpriseId?: string | undefined;
  channelId: string;
  triggerId: string;
  /** The register the invoice is to be created in (named, the channel's, or main). */
  register: ChosenRegister;
};

/**
 * `/invoice new [amount] [currency] [customer NAME] [email ADDRESS] [remind 1h|6h] [description]`: opens the create
 * modal, or says why not. The payer's e-mail is offered on API v3 registers only (v2 takes none).
 */
export async function openCreateModal(
  deps: ManagerDeps & Pick<ListenerDeps, "payments" | "defaultApiVersion" | "serviceTimeZone">,
  client: webApi.WebClient,
  command: CreateCommand,
  prefill: CreatePrefill,
  note: Note,
): Promise<Produced> {
  note({ action: "new" });
  const { lang } = command;
  const permission = await mayCreate(deps, client, command);
  note({ creator: permission.why });
  if (!permission.allowed) return { reply: createNotAllowedMessage(lang), log: { outcome: "not_allowed" } };
  const { register } = command;
  const emailOffered = await speaksV3(deps, register.key);
  if (prefill.email && !emailOffered) {
    const t = CREATE_TEXT[lang];
    return { reply: ephemeral(t.emailNeedsV3, t.emailNeedsV3Fallback), log: { outcome: "usage" } };
  }
  if (prefill.remindUnclear !== undefined) {
    const words = LINK_REMINDERS_TEXT[lang].remindWords(
      escapeMrkdwn(prefill.remindUnclear).replace(/`/g, "ˋ"),
    );
    return { reply: ephemeral(words, words.replace(/`/g, "")), log: { outcome: "usage" } };
  }
  const methods = await deps.payments.enabledMethodsWithin(register.key, CREATE_METHODS_BUDGET_MS);
  const methodCount = methods ? methods.length : "unavailable";
  try {
    await client.views.open({
      trigger_id: command.triggerId,
      view: createInvoiceModal({
        ...prefill,
        zone: deps.serviceTimeZone,
        emailOffered,
        methods,
        // Main's forms carry no name: they read as the forms opened before registers did.
        origin: {
          t: command.teamId,
          c: command.channelId,
          ...(register.key === command.teamId ? {} : { r: register.name }),
        },
        lang,
        register: register.several ? { name: register.name, how: register.how } : undefined,
      }),
    });
  } catch (error) {
    const reply = ephemeral(
      NOTICES_TEXT[lang].formNotOpened("/invoice new"),
      NOTICES_TEXT[lang].formNotOpenedFallback("/invoice new"),
    );
    return {
      reply,
      log: { outcome: "modal_failed", methods: methodCount, modalError: slackErrorCode(error) },
    };
  }
  return { reply: null, log: { outcome: "modal_opened", methods: methodCount } };
}

/** Whether the register is on API v3, the one that takes the payer's e-mail. */
async function speaksV3(
  deps: Pick<ManagerDeps, "stores"> & Pick<ListenerDeps, "defaultApiVersion">,
  registerKey: string,
): Promise<boolean> {
  const connection = await deps.stores.credentials.get(registerKey);
  if (!connection) throw new NotConnectedError(registerKey);
  return (connection.account.apiVersion ?? deps.defaultApiVersion) === "v3";
}
