import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { fieldError } from "../../blocks/form.js";
import {
  METHOD_WATCH_FIELDS,
  METHOD_WATCH_VIEW,
  watchAnnouncement,
  watchSavedNote,
} from "../../blocks/method-watch-form.js";
import type { Lang } from "../../i18n/lang.js";
import { METHOD_WATCH_FORM_TEXT } from "../../i18n/method-watch-form.js";
import {
  changedRules,
  checkWatchForm,
  type WatchProblem,
  type WatchRules,
} from "../../method-watch/form-input.js";
import { slackErrorCode } from "../../slack/error.js";
import { slackFailureOfCode } from "../../slack/failures.js";
import { handledSubmission, type Noted, type ViewAnswer } from "../contexts/handled.js";
import type { MethodsOutcome } from "../contexts/methods-outcome.js";
import type { Note, Outcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import type { ViewArgs } from "../router.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";
import { type ChosenRegister, registerNamed } from "../workspace/register.js";
import { readMethodWatchForm } from "./method-watch-values.js";

const originSchema = z.object({
  t: z.string().min(1).max(32),
  r: z.string().min(1).max(20),
  c: z.string().max(40),
});

type WatchFormDeps = ManagerDeps &
  Pick<ListenerDeps, "methodWatches" | "methodCheckMs" | "now" | "inFlight" | "audit">;

/** Where a refusal that belongs to no one field is said: the first field, the alert channel. */
const FIRST = METHOD_WATCH_FIELDS.channel;

/**
 * The methods watch form's Save: read the values, check the submitter again (a submission is a
 * request of its own: only admins may save), then each figure next to its field; saved, the form
 * closes, the watch is announced in the alert channel (what it watches, when the first check comes),
 * and the admin is told privately where the command was run (warned when Kassa is not in the channel).
 */
export const methodWatchSubmission =
  (deps: WatchFormDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const { team: teamId, user, lang } = await viewContext(deps, body);
    const where = { view: METHOD_WATCH_VIEW, team: teamId, user, field: FIRST, lang };
    await handledSubmission(deps, where, ack, (note, reply) =>
      saveWatchForm({ deps, client, view, body, teamId, lang, note, reply }),
    );
  };

/** One submission of the watch form being handled: what Slack sent, and how to answer it. */
type WatchSave = {
  deps: WatchFormDeps;
  client: webApi.WebClient;
  view: ViewArgs["view"];
  body: ViewArgs["body"];
  teamId: string;
  lang: Lang;
  note: Note<Noted>;
  reply: (answer?: ViewAnswer) => Promise<void>;
};

async function saveWatchForm(save: WatchSave): Promise<Outcome> {
  const { deps, client, body, lang, note, reply } = save;
  const t = METHOD_WATCH_FORM_TEXT[lang];
  const form = readSubmission(save.view, save.teamId, { origin: originSchema, values: readMethodWatchForm });
  const register = form ? await registerNamed(deps.stores.registers, save.teamId, form.origin.r) : undefined;
  if (!form || !register) {
    await reply(fieldError(FIRST, t.outdated));
    return { outcome: "bad_form" };
  }
  if (register.several) note({ register: register.name });
  const manager = await checkManager(deps, client, {
    userId: body.user.id,
    teamId: save.teamId,
    enterpriseId: body.enterprise?.id,
  });
  note({ manager: manager.why });
  if (!manager.allowed) {
    await reply(fieldError(FIRST, t.notAllowed));
    return { outcome: "not_allowed" };
  }
  const checked = checkWatchForm(form.values);
  if (!checked.ok) {
    const errors = fieldErrors(checked.problems, lang);
    await reply({ response_action: "errors", errors });
    return { outcome: "invalid", fields: Object.keys(errors) };
  }
  if (!(await deps.stores.credentials.get(register.key))) {
    await reply(fieldError(FIRST, t.notConnected));
    return { outcome: "not_connected" };
  }
  return saveRules(save, register, checked.rules, form.origin.c);
}

/** Each problem under its own field, in the form's language (the first one per field). */
function fieldErrors(problems: readonly WatchProblem[], lang: Lang): Record<string, string> {
  const t = METHOD_WATCH_FORM_TEXT[lang].problems;
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    const block = METHOD_WATCH_FIELDS[problem.field];
    if (errors[block]) continue;
    if (problem.reason === "range") errors[block] = t.range(problem.min, problem.max);
    else if (problem.reason === "too_many") errors[block] = t.tooMany(problem.max);
    else if (problem.field === "channel") errors[block] = t.channel;
    else errors[block] = problem.field === "silence" ? t.silence : t.required;
  }
  return errors;
}

/** Saves the rules, closes the form, announces the watch in its channel and tells the admin. */
async function saveRules(
  { deps, client, body, lang, note, reply }: WatchSave,
  register: ChosenRegister,
  rules: WatchRules,
  askedIn: string,
): Promise<MethodsOutcome> {
  const now = deps.now();
  const user = body.user.id;
  const before = (await deps.methodWatches.read(register.key)).settings;
  const result = await deps.methodWatches.set(
    register.key,
    { ...rules, by: user, at: now.toISOString() },
    now.getTime(),
  );
  await reply();
  const changed = changedRules(before, rules);
  const only = (from: WatchRules) => Object.fromEntries(changed.map((field) => [field, from[field]]));
  note({
    audit: {
      object: `methods watch ${register.name}`,
      ...(before ? { before: only(before) } : {}),
      after: only(rules),
    },
  });
  const message = watchAnnouncement({
    by: user,
    register: register.name,
    several: register.several,
    rules,
    kind: result,
    checkMinutes: Math.max(1, Math.ceil(deps.methodCheckMs / 60_000)),
    lang,
  });
  const announced = await client.chat
    .postMessage({ channel: rules.channel, text: message.text, blocks: message.blocks })
    .then(() => "posted" as const)
    .catch((error: unknown) => {
      const code = slackErrorCode(error);
      note({ tellError: code });
      return slackFailureOfCode(code) === "not_in_channel"
        ? ("not_in_channel" as const)
        : ("failed" as const);
    });
  const told = watchSavedNote({
    register: register.name,
    several: register.several,
    channel: rules.channel,
    notInChannel: announced === "not_in_channel",
    lang,
  });
  // Where Kassa may not write (a private channel it is not in), the admin hears it in its messages.
  await client.chat
    .postEphemeral({ channel: askedIn, user, text: told.text, blocks: told.blocks })
    .catch(() => client.chat.postMessage({ channel: user, text: told.text, blocks: told.blocks }))
    .catch((error: unknown) => note({ tellError: slackErrorCode(error) }));
  return { outcome: "method_watch_saved", result, announced };
}
