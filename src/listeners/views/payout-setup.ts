import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { fieldError } from "../../blocks/form.js";
import {
  PAYOUT_FIELDS,
  PAYOUT_SETUP_VIEW,
  policyAnnouncement,
  policySavedNote,
} from "../../blocks/payout-setup.js";
import { DEFAULT_LANG, type Lang } from "../../i18n/lang.js";
import { PAYOUTS_TEXT } from "../../i18n/payouts.js";
import { checkPolicy, type PayoutPolicy } from "../../payouts/policy.js";
import type { PolicyRead } from "../../payouts/policy-store.js";
import { changedFields, setPolicy } from "../../payouts/set-policy.js";
import { slackErrorCode } from "../../slack/error.js";
import { slackFailureOfCode } from "../../slack/failures.js";
import { MAIN_REGISTER } from "../../store/registers.js";
import type { ListenerDeps } from "../deps.js";
import type { ViewArgs } from "../router.js";
import { handledSubmission, type Noted } from "../shared/handled.js";
import { langFor } from "../shared/manage.js";
import type { ViewOutcome } from "../shared/outcome.js";
import { peopleError } from "../shared/payout-people.js";
import { checkManager, type ManagerDeps } from "../shared/permissions.js";
import { registerNamed } from "../shared/register.js";
import { teamIdOf } from "../shared/team.js";
import { parseJsonOrUndefined } from "./form.js";
import { readPayoutSetup } from "./payout-setup-values.js";

const originSchema = z.object({
  t: z.string().min(1).max(32),
  r: z.string().min(1).max(20),
  v: z.number().int().min(0),
  c: z.string().max(40),
});

type SetupDeps = ManagerDeps & Pick<ListenerDeps, "payoutPolicies" | "now" | "inFlight" | "audit">;

/**
 * The payout setup form's Save: read the values, check the submitter again (a submission is a
 * request of its own: only admins may save), then check and save the policy by compare-and-set
 * against the version the form showed (someone else's save meanwhile: said, nothing written). Saved:
 * the form closes, the change is announced in the approval channel, and the admin is told privately
 * where the command was run (with a warning when Kassa is not in the approval channel).
 */
export const payoutSetupSubmission =
  (deps: SetupDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const teamId = teamIdOf(body);
    const lang = await langFor(deps, teamId).catch(() => DEFAULT_LANG);
    const t = PAYOUTS_TEXT[lang];
    const user = body.user.id;
    const first = PAYOUT_FIELDS.approvers;
    const where = { view: PAYOUT_SETUP_VIEW, team: teamId, user, field: first, lang };
    await handledSubmission(deps, where, ack, async (noted, reply) => {
      const from = originSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
      const chosen = from.success
        ? await registerNamed(deps.stores.registers, teamId, from.data.r)
        : undefined;
      const input = readPayoutSetup(view.state.values);
      if (!from.success || from.data.t !== teamId || !chosen || !input) {
        await reply(fieldError(first, t.outdated));
        return { outcome: "bad_form" };
      }
      if (chosen.several) noted.register = chosen.name;
      const manager = await checkManager(deps, client, {
        userId: user,
        teamId,
        enterpriseId: body.enterprise?.id,
      });
      noted.manager = manager.why;
      if (!manager.allowed) {
        await reply(fieldError(first, t.notAllowed));
        return { outcome: "not_allowed" };
      }
      // The people are asked of Slack only once the values hold together (a few users.info calls).
      const people = checkPolicy(input).ok ? await peopleError(client, input, lang) : undefined;
      if (people) {
        await reply(people);
        return { outcome: "invalid", fields: Object.keys(people.errors) };
      }
      const result = await setPolicy(
        { policies: deps.payoutPolicies, credentials: deps.stores.credentials },
        chosen.key,
        input,
        // The change's audit entry is written with the save itself (payouts/policy-store.ts).
        { by: user, now: deps.now(), seenVersion: from.data.v, audit: deps },
      );
      if (result.kind === "invalid") {
        const errors = Object.fromEntries(
          result.problems.map((problem) => [PAYOUT_FIELDS[problem.field], t.problems[problem.reason]]),
        );
        await reply({ response_action: "errors", errors });
        return { outcome: "invalid", fields: Object.keys(errors) };
      }
      if (result.kind === "not_connected" || result.kind === "no_secret2") {
        const connect =
          chosen.name === MAIN_REGISTER ? "/invoice connect" : `/invoice ${chosen.name} connect`;
        await reply(
          fieldError(
            first,
            result.kind === "no_secret2" ? t.noSecret2(chosen.name, connect) : t.notConnected,
          ),
        );
        return result.kind === "no_secret2" ? { outcome: "no_secret2" } : { outcome: "not_connected" };
      }
      if (result.kind === "changed_meanwhile") {
        await reply(fieldError(first, changedMeanwhile(result.current, lang)));
        return { outcome: "policy_changed_meanwhile" };
      }
      await reply();
      noted.register = chosen.name;
      noted.audit = {
        object: `payout policy ${chosen.name}`,
        before: result.before ?? null,
        after: result.policy,
      };
      const announced = await announce(client, { by: user, register: chosen.name, ...result, lang }, noted);
      const note = policySavedNote(chosen.name, result.policy, announced === "not_in_channel", lang);
      await client.chat
        .postEphemeral({ channel: from.data.c, user, text: note.text, blocks: note.blocks })
        .catch((error: unknown) => {
          noted.tellError = slackErrorCode(error);
        });
      return { outcome: "policy_saved", version: result.policy.version, announced };
    });
  };

function changedMeanwhile(current: PolicyRead, lang: Lang): string {
  const t = PAYOUTS_TEXT[lang];
  // A field error is plain text: the saver's id and the time as stored, no mention or date token.
  if (current.kind !== "set") return t.changedMeanwhile("?", "?");
  return t.changedMeanwhile(current.policy.changedBy, current.policy.changedAt);
}

/** Posts the change in the approval channel; Kassa not in it is said to the admin, not thrown. */
async function announce(
  client: webApi.WebClient,
  change: {
    by: string;
    register: string;
    policy: PayoutPolicy;
    before: PayoutPolicy | undefined;
    lang: Lang;
  },
  noted: Noted,
): Promise<Extract<ViewOutcome, { outcome: "policy_saved" }>["announced"]> {
  const message = policyAnnouncement({ ...change, changed: changedFields(change.before, change.policy) });
  try {
    await client.chat.postMessage({
      channel: change.policy.channel,
      text: message.text,
      blocks: message.blocks,
    });
    return "posted";
  } catch (error) {
    const code = slackErrorCode(error);
    noted.tellError = code;
    return slackFailureOfCode(code) === "not_in_channel" ? "not_in_channel" : "failed";
  }
}
