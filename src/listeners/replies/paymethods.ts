import type { ReplyVisibility } from "../../blocks/invoice.js";
import type { SlackMessage } from "../../blocks/message.js";
import { switchNoteText } from "../../blocks/method-switch.js";
import { type PaymethodsView, paymethodsNoMatchMessage } from "../../blocks/paymethods.js";
import type { Lang } from "../../i18n/lang.js";
import { filterText } from "../../payments/method-filter.js";
import { methodsOnPage } from "../../paymethods/pages.js";
import type { MethodList } from "../../registers/workspace-payments.js";
import type { Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { type ChosenRegister, withRegisterFooter } from "../workspace/register.js";
import { langFor, visibilityFor } from "../workspace/settings.js";

/**
 * Reads the workspace's methods (cached unless `fresh`) and builds the page `view` asks for, for
 * the channel or privately for the asker (the workspace's reply choice, unless `visibility` says).
 * Its outcome: ok, or no_match when nothing matches the filter, with what was read.
 */
export async function paymethodsReply(
  deps: Pick<
    ListenerDeps,
    "payments" | "stores" | "replyVisibility" | "logger" | "paymethodsPages" | "methodSwitches"
  >,
  teamId: string,
  view: PaymethodsView,
  options: { fresh?: boolean; visibility?: ReplyVisibility; register?: ChosenRegister } = {},
): Promise<Produced & { reply: SlackMessage }> {
  const register = options.register;
  const [list, visibility, lang] = await Promise.all([
    deps.payments.methods(register?.key ?? teamId, { fresh: options.fresh ?? false }),
    options.visibility ?? visibilityFor(deps, teamId),
    langFor(deps, teamId),
  ]);
  const read = {
    cached: list.fromCache,
    ...(list.fromCache ? {} : { upstreamStatus: 200 as const }),
    methods: list.methods.length,
  };
  if (!list.fromCache && list.unreadable.length > 0) {
    // Codes and schema paths only: what an operator needs to see which entries the service changed.
    deps.logger.warn(
      { team: teamId, register: register?.name, unreadable: list.unreadable.slice(0, 20) },
      "method list entries left out",
    );
  }
  const shown = register?.several ? { ...view, register: register.name } : view;
  const notes = await switchNotes(deps, register?.key ?? teamId, list, view, lang);
  const message = deps.paymethodsPages.message(list.methods, shown, {
    notes,
    fetchedAt: list.fetchedAt,
    leftOut: { payoutOnly: list.payoutOnly, unreadable: list.unreadable.length },
    visibility,
    lang,
  });
  if (!message) {
    const reply = paymethodsNoMatchMessage(filterText(view.filter), lang);
    return {
      reply: register ? withRegisterFooter(reply, register, lang) : reply,
      log: { outcome: "no_match", ...read },
    };
  }
  return {
    reply: register ? withRegisterFooter(message, register, lang) : message,
    log: { outcome: "ok", ...read },
  };
}

/**
 * The page's notes: who switched each method in Kassa, and when. The list goes out without them
 * when the records cannot be read (they add to it; they are not what was asked for).
 */
async function switchNotes(
  deps: Pick<ListenerDeps, "methodSwitches" | "logger">,
  registerKey: string,
  list: MethodList,
  view: PaymethodsView,
  lang: Lang,
): Promise<Map<string, string>> {
  try {
    const page = methodsOnPage(list.methods, view);
    const notes = await deps.methodSwitches.notes(registerKey, page, list.fetchedAt.getTime());
    return new Map([...notes].map(([code, note]) => [code, switchNoteText(note, lang)]));
  } catch (error) {
    deps.logger.warn({ err: error }, "method switch records not read for the method list");
    return new Map();
  }
}
