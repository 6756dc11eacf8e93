import type { webApi } from "@slack/bolt";
import { batchFormModal } from "../../blocks/payout-batch-forms.js";
import { requestRefusedMessage } from "../../blocks/payout-replies.js";
import { ephemeral } from "../../blocks/replies.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { PASTE_MAX_CHARS } from "../../payout-batches/rows.js";
import { type PayoutPolicy, payoutsOn } from "../../payouts/policy.js";
import { slackErrorCode } from "../../slack/error.js";
import type { Note, Produced } from "../contexts/outcome.js";
import { notARequester } from "../payouts/requester.js";
import type { ManagerDeps } from "../workspace/permissions.js";
import type { ChosenRegister } from "../workspace/register.js";

/** Whether the command's text asks for the batch form. */
export const BATCH_COMMAND = /^(?:batch|пакет)$/i;

type Asked = {
  team_id: string;
  user_id: string;
  enterprise_id?: string | undefined;
  channel_id: string;
  trigger_id: string;
  chosen: ChosenRegister;
  lang: Lang;
};

/** `/payout batch`: the paste form, for those who may request payouts where payouts are on. */
export async function openBatchForm(
  deps: ManagerDeps,
  client: webApi.WebClient,
  asked: Asked,
  policy: PayoutPolicy | undefined,
  note: Note,
): Promise<Produced> {
  note({ action: "batch_form" });
  if (!payoutsOn(policy))
    return {
      reply: requestRefusedMessage({ kind: "payouts_off" }, asked.chosen.name, asked.lang),
      log: { outcome: "payout_refused", refusal: "payouts_off" },
    };
  const who = { user: asked.user_id, team: asked.team_id, enterpriseId: asked.enterprise_id };
  const refused = await notARequester(
    deps,
    client,
    { ...who, register: asked.chosen.name, lang: asked.lang },
    policy,
  );
  if (refused) return refused;
  try {
    await client.views.open({
      trigger_id: asked.trigger_id,
      view: batchFormModal({
        register: asked.chosen.name,
        channel: policy.channel,
        origin: { t: asked.team_id, c: asked.channel_id, r: asked.chosen.name },
        maxChars: PASTE_MAX_CHARS,
        lang: asked.lang,
      }),
    });
  } catch (error) {
    const text = NOTICES_TEXT[asked.lang];
    const reply = ephemeral(text.formNotOpened("/payout batch"), text.formNotOpenedFallback("/payout batch"));
    return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
  }
  return { reply: null, log: { outcome: "modal_opened" } };
}
