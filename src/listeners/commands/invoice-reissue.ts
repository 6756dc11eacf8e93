import type { webApi } from "@slack/bolt";
import { createNotAllowedMessage } from "../../blocks/invoice-create.js";
import type { Lang } from "../../i18n/lang.js";
import { findInvoice } from "../../invoices/lookup.js";
import { reissue } from "../../links/reissue.js";
import type { Note, Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { reissueReply } from "../replies/reissue.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, registersInOrder } from "../workspace/register.js";
import { mayCreate } from "../workspace/settings.js";

/**
 * `/invoice reissue ID` (RU `перевыпустить`): the invoice read in the channel's registers, then
 * re-issued as its card's button does (warned first while its link still works). Anyone who may
 * create invoices may re-issue one.
 */
export async function reissueCommand(
  deps: ManagerDeps & Pick<ListenerDeps, "payments" | "links" | "audit" | "now" | "watches" | "feeds">,
  client: webApi.WebClient,
  asker: { teamId: string; userId: string; enterpriseId?: string | undefined; register: ChosenRegister },
  request: { invoiceId: string },
  given: { lang: Lang; note: Note },
): Promise<Produced> {
  const { lang, note } = given;
  note({ action: "reissue", invoice: request.invoiceId });
  const permission = await mayCreate(deps, client, asker);
  note({ creator: permission.why });
  if (!permission.allowed) return { reply: createNotAllowedMessage(lang), log: { outcome: "not_allowed" } };
  const { invoice, register } = await findInvoice(deps, registersInOrder(asker.register), request.invoiceId);
  const name = asker.register.several ? register.name : undefined;
  if (name) note({ register: name });
  const done = await reissue(deps, client, {
    team: asker.teamId,
    registerKey: register.key,
    register: name,
    user: asker.userId,
    confirmedEarly: false,
    invoice,
  });
  return reissueReply(done, { team: asker.teamId, register: name, lang, note });
}
