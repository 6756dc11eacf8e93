import { z } from "zod";
import { fieldError } from "../../blocks/form.js";
import { walletEnding } from "../../blocks/payout-card.js";
import {
  APPROVE_FIELD,
  PAYOUT_APPROVE_VIEW,
  PAYOUT_REJECT_VIEW,
  REJECT_FIELD,
} from "../../blocks/payout-forms.js";
import { plainOf, type SlackVoteRefusal, voteRefusalText } from "../../blocks/payout-replies.js";
import { showAfterClick } from "../../payouts/notices.js";
import { requestOfTeam } from "../../payouts/request-model.js";
import { approve, reject, type VoteRefusal, type VoteResult } from "../../payouts/votes.js";
import { handledSubmission } from "../contexts/handled.js";
import type { Outcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import { personRefusal } from "../payouts/person.js";
import type { ViewArgs } from "../router.js";
import { textValue } from "./form.js";

const originSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/) });
const typedSchema = (field: string) =>
  z
    .object({ [field]: z.object({ value: textValue }) })
    .transform((values) => values[field]?.value.value?.trim() ?? "");

type VoteViewDeps = Pick<ListenerDeps, "payouts" | "now" | "logger" | "inFlight" | "audit" | "stores">;

type Vote = {
  field: string;
  /** Checks only Slack's side can make (the wallet's ending); undefined when it passes. */
  slackCheck: (typed: string, wallet: string) => SlackVoteRefusal | undefined;
  give: (deps: VoteViewDeps, id: string, user: string, typed: string) => Promise<VoteResult>;
};

const VOTES: Record<typeof PAYOUT_APPROVE_VIEW | typeof PAYOUT_REJECT_VIEW, Vote> = {
  [PAYOUT_APPROVE_VIEW]: {
    field: APPROVE_FIELD,
    slackCheck: (typed, wallet) =>
      typed.replace(/\s+/g, "").toUpperCase() === walletEnding(wallet).toUpperCase() && typed !== ""
        ? undefined
        : { kind: "wallet_mismatch" },
    give: (deps, id, user) => approve(deps.payouts, id, user, deps.now()),
  },
  [PAYOUT_REJECT_VIEW]: {
    field: REJECT_FIELD,
    slackCheck: () => undefined,
    give: (deps, id, user, typed) => reject(deps.payouts, id, user, typed, deps.now()),
  },
};

/**
 * Approve's and Reject's modals submitted: the request read again, the wallet's last four checked
 * (Approve), the person checked with Slack now, then the vote given (checked again against the policy
 * and the request's state, by compare-and-set). A refusal stays in the modal, next to its field.
 */
export const payoutVoteSubmission =
  (deps: VoteViewDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const { team, user, lang } = await viewContext(deps, body);
    const vote = VOTES[view.callback_id as keyof typeof VOTES] ?? VOTES[PAYOUT_APPROVE_VIEW];
    const where = { view: view.callback_id, team, user, field: vote.field, lang };
    await handledSubmission(deps, where, ack, async (note, reply): Promise<Outcome> => {
      const refused = async (
        refusal: VoteRefusal | SlackVoteRefusal,
        by: "kassa" | "slack",
      ): Promise<Outcome> => {
        await reply(fieldError(vote.field, plainOf(voteRefusalText(refusal, lang)).slice(0, 1900)));
        return { outcome: "payout_vote_refused", refusal: refusal.kind, by };
      };
      // The form names a request, not a workspace: the request is read as this workspace's.
      const form = readSubmission(view, team, { origin: originSchema, values: typedSchema(vote.field) });
      const read = form ? await requestOfTeam(deps.payouts, form.origin.id, team) : undefined;
      if (!form || !read) return refused({ kind: "not_found" }, "slack");
      const id = read.request.id;
      note({ payout: id });
      const mismatch = vote.slackCheck(form.values, read.request.wallet);
      if (mismatch) return refused(mismatch, "slack");
      const person = await personRefusal(client, user);
      if (person) return refused(person, "slack");
      const result = await vote.give(deps, id, user, form.values);
      if (result.kind === "refused") return refused(result.refusal, "kassa");
      await reply();
      await showAfterClick(deps.payouts, client, id, deps.now());
      return { outcome: "payout_voted", result: result.kind };
    });
  };
