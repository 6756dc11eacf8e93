import { BATCH_ACTIONS } from "../../blocks/ids.js";
import { batchApproveModal, batchRejectModal } from "../../blocks/payout-batch-forms.js";
import { ephemeral } from "../../blocks/replies.js";
import { PAYOUT_BATCH_TEXT } from "../../i18n/payout-batch.js";
import { PAYOUT_VOTE_TEXT } from "../../i18n/payout-vote.js";
import { type BatchDecision, batchCheck, cancelBatch, dropRefusedRows } from "../../payout-batches/decide.js";
import { announceBatch } from "../../payout-batches/show.js";
import { slackErrorCode } from "../../slack/error.js";
import { actionContext, privateNote } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import type { ListenerDeps } from "../deps.js";
import { batchVoteRefusalText } from "../payouts/batch-words.js";
import { personRefusal } from "../payouts/person.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";

type BatchButtonDeps = AnswerDeps & ManagerDeps & Pick<ListenerDeps, "payouts" | "now">;

const BATCH_ID = /^[a-z2-7]{10}$/;
const ACTS = {
  [BATCH_ACTIONS.approve]: "approve",
  [BATCH_ACTIONS.reject]: "reject",
  [BATCH_ACTIONS.drop]: "drop",
  [BATCH_ACTIONS.cancel]: "cancel",
} as const;

/**
 * A batch card's buttons. Approve and Reject: who pressed is checked at once (an approver now, not
 * its requester, a full member; for Approve, within their limit and no refused row left), then the
 * modal opens (Approve asks for its rows and total, Reject for a reason). Drop refused rows and
 * Cancel batch are its requester's, and act at once. Refusals are said privately, with who can.
 */
export const batchButton =
  (deps: BatchButtonDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client, body } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const send = privateNote(respond);
    await answer(deps, press.context, send, async (note) => {
      const lang = await press.lang();
      const t = PAYOUT_BATCH_TEXT[lang];
      const id = BATCH_ID.test(action.value ?? "") ? (action.value as string) : "";
      const act = ACTS[action.action_id as keyof typeof ACTS] ?? "approve";
      note({ audit: { object: `batch ${id}` } });
      const refused = (refusal: Parameters<typeof batchVoteRefusalText>[0], by: "kassa" | "slack") => {
        const text = `:no_entry_sign: ${batchVoteRefusalText(refusal, lang)}`;
        return {
          reply: ephemeral(text, t.fallback),
          log: { outcome: "batch_refused", refusal: refusal.kind, act, by },
        } as const;
      };
      const now = deps.now();
      if (act === "drop" || act === "cancel") {
        const result = await requesterAct(deps, client, { id, act, team: press.teamId, user: press.userId });
        if (result.kind === "refused") return refused(result.refusal, "kassa");
        const done = t.done[result.kind](result.kind === "dropped" ? result.rows : 0);
        return { reply: ephemeral(done, t.fallback), log: { outcome: "batch_decided", result: result.kind } };
      }
      const checked = id
        ? await batchCheck(deps.payouts, id, press.teamId, press.userId, now, act)
        : undefined;
      if (!checked || "refusal" in checked)
        return refused(checked?.refusal ?? { kind: "not_found" }, "slack");
      const person = await personRefusal(client, press.userId);
      if (person) return refused(person, "slack");
      const view =
        act === "approve"
          ? batchApproveModal(checked, lang)
          : batchRejectModal(checked.id, lang, checked.approved);
      try {
        await client.views.open({ trigger_id: body.trigger_id, view });
      } catch (error) {
        const text = PAYOUT_VOTE_TEXT[lang].modalNotOpened;
        return {
          reply: ephemeral(text, text),
          log: { outcome: "modal_failed", modalError: slackErrorCode(error) },
        };
      }
      return { reply: null, log: { outcome: "modal_opened" } };
    });
  };

/** Drop refused rows or Cancel batch, its requester's: done at once, the card updated. */
async function requesterAct(
  deps: BatchButtonDeps,
  client: ActionArgs["client"],
  press: { id: string; act: "drop" | "cancel"; team: string; user: string },
): Promise<BatchDecision> {
  if (!press.id) return { kind: "refused", refusal: { kind: "not_found" } };
  const now = deps.now();
  const decide = press.act === "drop" ? dropRefusedRows : cancelBatch;
  const result = await decide(deps.payouts, press.id, press.team, press.user, now);
  if (result.kind !== "refused") await announceBatch(deps.payouts, client, press.id, now, false);
  return result;
}
