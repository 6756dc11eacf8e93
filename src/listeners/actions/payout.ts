import { PAYOUT_ACTIONS } from "../../blocks/ids.js";
import { payoutApproveModal, payoutRejectModal } from "../../blocks/payout-forms.js";
import { voteRefusedMessage } from "../../blocks/payout-replies.js";
import { ephemeral } from "../../blocks/replies.js";
import { PAYOUT_VOTE_TEXT } from "../../i18n/payout-vote.js";
import { showAfterClick } from "../../payouts/notices.js";
import { requestOfTeam } from "../../payouts/request-model.js";
import { cancel, voteCheck } from "../../payouts/votes.js";
import { slackErrorCode } from "../../slack/error.js";
import { actionContext, privateNote } from "../contexts/action-context.js";
import { type AnswerDeps, answer } from "../contexts/answer.js";
import type { ListenerDeps } from "../deps.js";
import { personRefusal } from "../payouts/person.js";
import type { ActionArgs } from "../router.js";
import type { ManagerDeps } from "../workspace/permissions.js";

type PayoutButtonDeps = AnswerDeps & ManagerDeps & Pick<ListenerDeps, "payouts" | "now">;

/** A request's id as the card's buttons carry it; anything else is out of date. */
const PAYOUT_ID = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * Approve or Reject on a request's card: who pressed is checked at once (an approver of the policy
 * now, not the requester, not a guest, not voted yet), then the modal opens: Approve asks for the
 * wallet's last four characters, Reject for a reason. The vote itself is given, and checked again,
 * when the modal is submitted. A refusal is said privately, with who can.
 */
export const payoutVoteButton =
  (deps: PayoutButtonDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond, client, body } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const send = privateNote(respond);
    await answer(deps, press.context, send, async (note) => {
      const lang = await press.lang();
      const id = PAYOUT_ID.test(action.value ?? "") ? (action.value as string) : "";
      note({ payout: id });
      const kind = action.action_id === PAYOUT_ACTIONS.approve ? "approve" : "reject";
      const found = id ? await voteCheck(deps.payouts, id, press.userId, deps.now(), kind) : undefined;
      // A request of another workspace (a card in a shared channel) is none of this one's: told as
      // out of date, naming no one.
      const checked = found?.request && found.request.team !== press.teamId ? undefined : found;
      const refusal = !checked
        ? { kind: "not_found" as const }
        : (checked.refusal ?? (await personRefusal(client, press.userId)));
      if (refusal || !checked?.request)
        return {
          reply: voteRefusedMessage(refusal ?? { kind: "not_found" }, lang),
          log: { outcome: "payout_vote_refused", refusal: refusal?.kind ?? "not_found", by: "slack" },
        };
      const origin = { id, c: body.channel?.id };
      const view =
        kind === "approve"
          ? payoutApproveModal(checked.request, origin, lang)
          : payoutRejectModal(checked.request, origin, lang);
      try {
        await client.views.open({ trigger_id: body.trigger_id, view });
      } catch (error) {
        const text = PAYOUT_VOTE_TEXT[lang].modalNotOpened;
        const reply = ephemeral(text, text);
        return { reply, log: { outcome: "modal_failed", modalError: slackErrorCode(error) } };
      }
      return { reply: null, log: { outcome: "modal_opened" } };
    });
  };

/** Cancel on the requester's copy: until it is sent, the requester ends the request (the quote cancelled). */
export const payoutCancelButton =
  (deps: PayoutButtonDeps) =>
  async (args: ActionArgs): Promise<void> => {
    const { ack, action, respond } = args;
    await ack();
    const press = actionContext(deps, args, { offersConnect: false });
    const send = privateNote(respond);
    await answer(deps, press.context, send, async (note) => {
      const lang = await press.lang();
      const id = PAYOUT_ID.test(action.value ?? "") ? (action.value as string) : "";
      note({ payout: id });
      const theirs = (await requestOfTeam(deps.payouts, id, press.teamId)) !== undefined;
      const result = theirs
        ? await cancel(deps.payouts, id, press.userId, deps.now())
        : ({ kind: "refused", refusal: { kind: "not_found" } } as const);
      if (result.kind === "refused")
        return {
          reply: voteRefusedMessage(result.refusal, lang),
          log: { outcome: "payout_vote_refused", refusal: result.refusal.kind, by: id ? "kassa" : "slack" },
        };
      await showAfterClick(deps.payouts, args.client, id, deps.now());
      const t = PAYOUT_VOTE_TEXT[lang];
      return {
        reply: ephemeral(t.cancelledNow, t.cancelledNow),
        log: { outcome: "payout_voted", result: result.kind },
      };
    });
  };
