import type { z } from "zod";
import { DEFAULT_LANG, type Lang } from "../../i18n/lang.js";
import type { ListenerDeps } from "../deps.js";
import type { ViewArgs } from "../router.js";
import { langFor } from "../workspace/settings.js";
import { teamIdOf } from "./team.js";

/** Who submitted a form, in which workspace, and the language its answer is in. */
export type SubmissionContext = { team: string; user: string; enterpriseId: string | undefined; lang: Lang };

/** A form submission's opening step: its workspace, its submitter and the workspace's language. */
export async function viewContext(
  deps: Pick<ListenerDeps, "stores">,
  body: ViewArgs["body"],
): Promise<SubmissionContext> {
  const team = teamIdOf(body);
  const lang = await langFor(deps, team).catch(() => DEFAULT_LANG);
  return { team, user: body.user.id, enterpriseId: body.enterprise?.id, lang };
}

/** How a form's values are read: its zod schema, or a reader of its own (undefined: not readable). */
type ValuesReader<V> = z.ZodType<V> | ((values: unknown) => V | undefined);

/** What a form carried (its `private_metadata`) and what was typed in it, each read by the form's schema. */
export type SubmittedForm<O, V> = { origin: O; values: V };

/**
 * The one reading of a form's `private_metadata`: JSON parsed by the form's origin schema, and checked
 * to be this workspace's (its `t`; a form whose origin names no workspace, as a vote's request id, is
 * checked by what it names). The values are read by the form's own reader. Undefined: the form is out
 * of date or forged, and is answered as out of date.
 */
export function readSubmission<O extends object, V = undefined>(
  view: Pick<ViewArgs["view"], "private_metadata" | "state">,
  team: string,
  form: { origin: z.ZodType<O>; values?: ValuesReader<V> },
): SubmittedForm<O, V> | undefined {
  const origin = form.origin.safeParse(jsonOrUndefined(view.private_metadata));
  if (!origin.success) return undefined;
  if ("t" in origin.data && origin.data.t !== team) return undefined;
  if (!form.values) return { origin: origin.data, values: undefined as V };
  const values = readValues(form.values, view.state.values);
  return values === undefined ? undefined : { origin: origin.data, values };
}

function readValues<V>(reader: ValuesReader<V>, values: unknown): V | undefined {
  if (typeof reader === "function") return reader(values);
  const read = reader.safeParse(values);
  return read.success ? read.data : undefined;
}

/** A view's private_metadata as JSON; undefined when it is not JSON (then the form is out of date). */
function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
