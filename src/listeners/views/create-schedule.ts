import type { webApi } from "@slack/bolt";
import { z } from "zod";
import { recordAct } from "../../audit/index.js";
import { fieldError } from "../../blocks/form.js";
import { CREATE_FIELDS } from "../../blocks/invoice-create.js";
import {
  type CheckedRepeat,
  REPEAT_FIELDS,
  type RepeatInitial,
  validateRepeatInput,
} from "../../blocks/invoice-repeat.js";
import { ephemeral } from "../../blocks/replies.js";
import { scheduleDate, scheduleRule, scheduleWhat } from "../../blocks/schedules.js";
import type { Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { SCHEDULES_TEXT } from "../../i18n/schedules.js";
import { type Creator, tellCreator } from "../../invoices/created-card.js";
import { MAX_SCHEDULES, ruleWith, type Schedule, TooManySchedulesError } from "../../link-schedules/index.js";
import type { InvoiceDraft } from "../../payments/model.js";
import { dayIn } from "../../reports/periods.js";
import type { ViewAnswer } from "../contexts/handled.js";
import type { Outcome } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { selectValue, textValue } from "./form.js";

// The create form with Every week or Every month chosen (issue 51, item 4): no invoice now, a
// schedule whose first run is the next such moment (today included) in the workspace's zone; the
// schedules' pass makes each run. Its creator is told when the first comes, and where.

export type ScheduleFormDeps = Pick<
  ListenerDeps,
  "schedules" | "now" | "serviceTimeZone" | "audit" | "logger"
>;

const pickedTime = z.object({ value: z.object({ selected_time: z.string().nullish() }) });
const pickedDate = z.object({ value: z.object({ selected_date: z.string().nullish() }) });
/** The Repeat fields of view.state.values (all optional: forms opened before them have none). */
const repeatValues = z
  .object({
    [REPEAT_FIELDS.every]: z.object({ value: selectValue }).optional(),
    [REPEAT_FIELDS.day]: z.object({ value: textValue }).optional(),
    [REPEAT_FIELDS.at]: pickedTime.optional(),
    [REPEAT_FIELDS.until]: pickedDate.optional(),
    [REPEAT_FIELDS.times]: z.object({ value: textValue }).optional(),
  })
  .transform((values) => ({
    every: values[REPEAT_FIELDS.every]?.value.selected_option?.value,
    day: values[REPEAT_FIELDS.day]?.value.value,
    at: values[REPEAT_FIELDS.at]?.value.selected_time,
    until: values[REPEAT_FIELDS.until]?.value.selected_date,
    times: values[REPEAT_FIELDS.times]?.value.value,
  }));

/** The Repeat fields read and checked (an unreadable set of them reads as no repeat). */
export function checkedRepeat(deps: ScheduleFormDeps, values: unknown, lang: Lang): CheckedRepeat {
  const read = repeatValues.safeParse(values);
  if (!read.success) return { ok: true, repeat: undefined };
  return validateRepeatInput(read.data, dayIn(deps.now(), deps.serviceTimeZone), lang);
}

type Given = {
  creator: Creator & { registerKey: string };
  draft: InvoiceDraft;
  customer?: string | undefined;
  repeat: RepeatInitial;
  lang: Lang;
  reply: (answer?: ViewAnswer) => Promise<void>;
};

/** The schedule made from the checked form, the form closed and its creator told; or why not, in the form. */
export async function makeSchedule(
  deps: ScheduleFormDeps,
  client: webApi.WebClient,
  given: Given,
): Promise<Outcome> {
  const { creator, lang, reply } = given;
  const zone = deps.serviceTimeZone;
  const t = SCHEDULES_TEXT[lang];
  const schedule = await written(deps, given);
  if ("outcome" in schedule) return schedule;
  await reply();
  await recordAct(deps.audit, deps.logger, {
    team: creator.teamId,
    ...(creator.register ? { register: creator.register } : {}),
    actor: creator.userId,
    action: "schedule.created",
    object: `schedule ${schedule.id}`,
    after: { amount: schedule.order.amount, currency: schedule.order.currency, ...schedule.rule },
    outcome: "done",
  });
  const what = scheduleWhat(schedule, lang);
  const first = scheduleDate(schedule.nextAt, zone, lang);
  const text = t.made(what, scheduleRule(schedule, lang), zone, `<#${creator.channelId}>`, first);
  await tellCreator(client, creator, ephemeral(text, t.madeFallback(what)), {}).catch((error: unknown) =>
    deps.logger.warn(
      { team: creator.teamId, err: error },
      "a repeating invoice was set, its creator not told",
    ),
  );
  return { outcome: "schedule_created" };
}

/** The schedule written (listed, due at its first run), or why not, said in the form. */
async function written(deps: ScheduleFormDeps, given: Given): Promise<Schedule | Outcome> {
  const { creator, repeat, reply, lang } = given;
  const zone = deps.serviceTimeZone;
  try {
    return await deps.schedules.create({
      team: creator.teamId,
      registerKey: creator.registerKey,
      ...(creator.register ? { register: creator.register } : {}),
      owner: creator.userId,
      channel: creator.channelId,
      rule: ruleWith(repeat, deps.now().getTime(), zone),
      zone,
      ...(repeat.until ? { until: repeat.until } : {}),
      ...(repeat.times ? { times: repeat.times } : {}),
      order: orderOf(given.draft, given.customer),
    });
  } catch (error) {
    if (error instanceof TooManySchedulesError) {
      await reply(fieldError(REPEAT_FIELDS.every, SCHEDULES_TEXT[lang].tooMany(MAX_SCHEDULES)));
      return { outcome: "invalid", fields: [REPEAT_FIELDS.every] };
    }
    await reply(fieldError(CREATE_FIELDS.amount, NOTICES_TEXT[lang].createStoreDown));
    return { outcome: "store_unavailable", err: error };
  }
}

function orderOf(draft: InvoiceDraft, customer: string | undefined): Schedule["order"] {
  const order: Schedule["order"] = {
    amount: draft.amount,
    currency: draft.currency,
    lifetimeMinutes: draft.lifetimeMinutes,
  };
  if (draft.description) order.description = draft.description;
  if (draft.extra) order.extra = draft.extra;
  if (draft.payerDetails) order.email = draft.payerDetails;
  if (draft.requiredMethod) order.method = draft.requiredMethod;
  if (customer) order.customer = customer;
  return order;
}
