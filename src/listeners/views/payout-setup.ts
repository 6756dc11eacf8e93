import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { fieldError } from "../../blocks/form.js";
import {
  PAYOUT_FIELDS,
  PAYOUT_SETUP_VIEW,
  policyAnnouncement,
  policySavedNote,
} from "../../blocks/payout-setup.js";
import type { Lang } from "../../i18n/lang.js";
import { PAYOUTS_TEXT } from "../../i18n/payouts.js";
import { checkPolicy, type PayoutPolicy, type PolicyInput } from "../../payouts/policy.js";
import type { PolicyRead } from "../../payouts/policy-store.js";
import { changedFields, type SetPolicyResult, setPolicy } from "../../payouts/set-policy.js";
import { slackErrorCode } from "../../slack/error.js";
import { slackFailureOfCode } from "../../slack/failures.js";
import { MAIN_REGISTER } from "../../store/registers.js";
import { handledSubmission, type Noted, type ViewAnswer } from "../contexts/handled.js";
import type { Note, Outcome, ViewOutcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import { peopleError } from "../payouts/people.js";
import type { ViewArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, registerNamed } from "../workspace/register.js";
import { policyFieldErrors } from "./payout-setup-errors.js";
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
    const { team: teamId, user, lang } = await viewContext(deps, body);
    const where = { view: PAYOUT_SETUP_VIEW, team: teamId, user, field: FIRST, lang };
    await handledSubmission(deps, where, ack, (note, reply) =>
      savePolicyForm({ deps, client, view, body, teamId, lang, note, reply }),
    );
  };

const FIRST = PAYOUT_FIELDS.approvers;

/** One submission of the payout setup form being handled: what Slack sent, and how to answer it. */
type SetupSave = {
  deps: SetupDeps;
  client: webApi.WebClient;
  view: ViewArgs["view"];
  body: ViewArgs["body"];
  teamId: string;
  lang: Lang;
  note: Note<Noted>;
  reply: (answer?: ViewAnswer) => Promise<void>;
};
/** The form read: its register, the version it showed, where it was opened, and the policy typed. */
type SetupForm = { register: ChosenRegister; seenVersion: number; channel: string; input: PolicyInput };

async function savePolicyForm(save: SetupSave): Promise<Outcome> {
  const { deps, client, body, lang, note, reply } = save;
  const form = await setupForm(save);
  if ("outcome" in form) return form;
  const { register, input } = form;
  if (register.several) note({ register: register.name });
  const manager = await checkManager(deps, client, {
    userId: body.user.id,
    teamId: save.teamId,
    enterpriseId: body.enterprise?.id,
  });
  note({ manager: manager.why });
  if (!manager.allowed) {
    await reply(fieldError(FIRST, PAYOUTS_TEXT[lang].notAllowed));
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
    register.key,
    input,
    // The change's audit entry is written with the save itself (payouts/policy-store.ts).
    { by: body.user.id, now: deps.now(), seenVersion: form.seenVersion, audit: deps },
  );
  if (result.kind !== "saved") return notSaved(save, register, result);
  return tellSaved(save, form, result);
}

/** The form's register and values, as its metadata names them in this workspace; or why not. */
async function setupForm({ deps, view, teamId, lang, reply }: SetupSave): Promise<SetupForm | Outcome> {
  const form = readSubmission(view, teamId, { origin: originSchema, values: readPayoutSetup });
  const register = form ? await registerNamed(deps.stores.registers, teamId, form.origin.r) : undefined;
  if (!form || !register) {
    await reply(fieldError(FIRST, PAYOUTS_TEXT[lang].outdated));
    return { outcome: "bad_form" };
  }
  return { register, seenVersion: form.origin.v, channel: form.origin.c, input: form.values };
}

/** Not saved: the policy's problems next to their fields, the register not ready, or a save meanwhile. */
async function notSaved(
  { lang, reply }: SetupSave,
  register: ChosenRegister,
  result: Exclude<SetPolicyResult, { kind: "saved" }>,
): Promise<Outcome> {
  const t = PAYOUTS_TEXT[lang];
  if (result.kind === "invalid") {
    const errors = policyFieldErrors(result.problems, lang);
    await reply({ response_action: "errors", errors });
    return { outcome: "invalid", fields: Object.keys(errors) };
  }
  if (result.kind === "not_connected" || result.kind === "no_secret2") {
    const connect =
      register.name === MAIN_REGISTER ? "/invoice connect" : `/invoice ${register.name} connect`;
    await reply(
      fieldError(FIRST, result.kind === "no_secret2" ? t.noSecret2(register.name, connect) : t.notConnected),
    );
    return result.kind === "no_secret2" ? { outcome: "no_secret2" } : { outcome: "not_connected" };
  }
  await reply(fieldError(FIRST, changedMeanwhile(result.current, lang)));
  return { outcome: "policy_changed_meanwhile" };
}

/** Saved: the form closes, the change is announced, and the admin told privately where they ran it. */
async function tellSaved(
  { client, body, lang, note, reply }: SetupSave,
  form: SetupForm,
  result: Extract<SetPolicyResult, { kind: "saved" }>,
): Promise<Outcome> {
  const { register } = form;
  const user = body.user.id;
  await reply();
  note({ register: register.name });
  note({
    audit: {
      object: `payout policy ${register.name}`,
      before: result.before ?? null,
      after: result.policy,
    },
  });
  const announced = await announce(client, { by: user, register: register.name, ...result, lang }, note);
  const told = policySavedNote(register.name, result.policy, announced === "not_in_channel", lang);
  await client.chat
    .postEphemeral({ channel: form.channel, user, text: told.text, blocks: told.blocks })
    .catch((error: unknown) => {
      note({ tellError: slackErrorCode(error) });
    });
  return { outcome: "policy_saved", version: result.policy.version, announced };
}

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
  note: Note<Noted>,
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
    note({ tellError: code });
    return slackFailureOfCode(code) === "not_in_channel" ? "not_in_channel" : "failed";
  }
}
