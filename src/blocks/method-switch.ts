import type { types } from "@slack/bolt";
import type { Lang } from "../i18n/lang.js";
import { type AskKind, METHOD_SWITCH_TEXT } from "../i18n/method-switch.js";
import type { PaymentMethod } from "../payments/model.js";
import type { Confirmed, Prepared } from "../paymethods/switch-model.js";
import type { SwitchNote } from "../paymethods/switch-rules.js";
import type { SwitchWant } from "../paymethods/switch-state.js";
import { modal } from "./form.js";
import { formatDecimal, slackDateFromEpoch } from "./format.js";
import { METHOD_SWITCH_VIEW } from "./ids.js";
import { LIMITS } from "./limits.js";
import { escapeMrkdwn, inlineCode, safeText, truncate } from "./mrkdwn.js";

export { METHOD_SWITCH_VIEW } from "./ids.js";

/** What the confirmation carries (private_metadata): workspace, register, method, and what is wanted. */
export type SwitchOrigin = { t: string; r: string; c: string; w: SwitchWant };

/** Whatever a switch ends in that a person is shown (what the use case answered, or a failure's words). */
export type SwitchShown =
  | Exclude<Prepared, { kind: "confirm" }>
  | Confirmed
  | { kind: "failed"; text: string };

const percent = (value: string, lang: Lang) => `${formatDecimal(value, lang)} %`;
const when = (ms: number, lang: Lang) => slackDateFromEpoch(Math.floor(ms / 1000), lang);
const person = (user: string) => (/^[UW][A-Z0-9]{2,20}$/.test(user) ? `<@${user}>` : escapeMrkdwn(user));

/** What a want asks for, in the words' terms: its kind, and the surcharge formatted ("" when none). */
export function askOf(want: SwitchWant, lang: Lang): { kind: AskKind; percent: string } {
  if (want.surcharge !== undefined) return { kind: "surcharge", percent: percent(want.surcharge, lang) };
  return { kind: want.on ? "on" : "off", percent: "" };
}

/** A method as a person knows it: its name in bold and its code, escaped. */
export function methodTitle(method: Pick<PaymentMethod, "name" | "code">): string {
  return `*${safeText(method.name, 80)}* ${inlineCode(truncate(method.code, 40))}`;
}

const section = (text: string): types.KnownBlock => ({
  type: "section",
  text: { type: "mrkdwn", text: truncate(text, LIMITS.sectionText) },
});
const context = (text: string): types.KnownBlock => ({
  type: "context",
  elements: [{ type: "mrkdwn", text: truncate(text, LIMITS.sectionText) }],
});

/** The modal opened at once (the trigger lapses in 3 s) while the method is read afresh. */
export function switchReadingModal(code: string, want: SwitchWant, lang: Lang): types.ModalView {
  const t = METHOD_SWITCH_TEXT[lang];
  return modal({
    callbackId: METHOD_SWITCH_VIEW,
    title: t.title[askOf(want, lang).kind],
    close: t.cancel,
    blocks: [section(t.reading(inlineCode(truncate(code, 40))))],
  });
}

/**
 * The confirmation: the method's name, code, currency, its state and surcharge now, what payers will
 * see, and the register where the workspace has several.
 */
export function switchConfirmModal(options: {
  method: PaymentMethod;
  origin: SwitchOrigin;
  /** The register's name, shown where the workspace has several. */
  register?: string | undefined;
  lang: Lang;
}): types.ModalView {
  const { method, origin, lang } = options;
  const t = METHOD_SWITCH_TEXT[lang];
  const ask = askOf(origin.w, lang);
  const name = safeText(method.name, 80);
  const blocks = [
    section(`${methodTitle(method)} · ${safeText(method.currency, 12)}`),
    section(t.now(method.switchedOn, percent(method.extraCommissionPercent, lang), method.enabled)),
    section(t.payersSee(name, ask.kind, ask.percent, !method.enabled)),
    ...(options.register ? [context(t.register(escapeMrkdwn(options.register)))] : []),
    context(t.sendsOnce),
  ];
  return modal({
    callbackId: METHOD_SWITCH_VIEW,
    title: t.title[ask.kind],
    submit: t.submit[ask.kind],
    close: t.cancel,
    privateMetadata: JSON.stringify(origin),
    blocks,
  });
}

/** The modal while a confirmed switch is sent and read back. */
export function switchSendingModal(origin: SwitchOrigin, lang: Lang): types.ModalView {
  const t = METHOD_SWITCH_TEXT[lang];
  const ask = askOf(origin.w, lang);
  return modal({
    callbackId: METHOD_SWITCH_VIEW,
    title: t.title[ask.kind],
    close: t.close,
    blocks: [section(t.sending(inlineCode(truncate(origin.c, 40)), ask.kind, ask.percent))],
  });
}

/** The modal with how it ended: what the service shows, or why nothing was sent. */
export function switchAnswerModal(shown: SwitchShown, origin: SwitchOrigin, lang: Lang): types.ModalView {
  const t = METHOD_SWITCH_TEXT[lang];
  return modal({
    callbackId: METHOD_SWITCH_VIEW,
    title: t.title[askOf(origin.w, lang).kind],
    close: t.close,
    blocks: [section(switchAnswerText(shown, origin, lang))],
  });
}

/** How a switch ended, in mrkdwn (the answer modal's text, and the log of what a person was told). */
export function switchAnswerText(shown: SwitchShown, origin: SwitchOrigin, lang: Lang): string {
  const t = METHOD_SWITCH_TEXT[lang];
  const ask = askOf(origin.w, lang);
  const named = (method: PaymentMethod | undefined) => (method ? methodTitle(method) : inlineCode(origin.c));
  const state = (method: PaymentMethod) =>
    [method.switchedOn, percent(method.extraCommissionPercent, lang)] as const;
  switch (shown.kind) {
    case "done":
      return t.done(named(shown.method), ...state(shown.method));
    case "already":
      return `${t.already(named(shown.method), ask.kind, ask.percent)} ${alreadyText(shown.by, lang)}`.trim();
    case "last_on":
      return t.lastOn(named(shown.method));
    case "unknown":
      return t.unknown(inlineCode(truncate(origin.c, 40)));
    case "repeat":
      return shown.last
        ? t.repeatLast(
            inlineCode(origin.c),
            shown.last.on,
            percent(shown.last.surcharge, lang),
            person(shown.last.by),
            when(shown.last.at, lang),
          )
        : t.repeat;
    case "under_way":
      return t.underWay(inlineCode(origin.c), person(shown.by));
    case "refused":
      return t.refused(safeText(shown.messages.join("; ") || "?", 500));
    case "unsure": {
      const said = shown.accepted ? t.unsureAccepted(named(shown.method)) : t.unsure(named(shown.method));
      return shown.method ? `${said} ${t.unsureShows(...state(shown.method))}` : said;
    }
    case "failed":
      return `${shown.text} ${t.failed}`;
  }
}

function alreadyText(by: Extract<SwitchShown, { kind: "already" }>["by"], lang: Lang): string {
  const t = METHOD_SWITCH_TEXT[lang];
  if (by.kind === "kassa") return t.alreadyByKassa(person(by.by), when(by.at, lang));
  if (by.kind === "outside") return t.alreadyOutside(when(by.since, lang));
  return "";
}

/** The method list's note on a method's switch: "switched off by @anna, 28 Nov 21:40". */
export function switchNoteText(note: SwitchNote, lang: Lang): string {
  const t = METHOD_SWITCH_TEXT[lang];
  const ask = askOf(note.want, lang);
  return note.kind === "pending"
    ? t.notePending(ask.kind, ask.percent, person(note.by), note.unsure)
    : t.noteLast(ask.kind, ask.percent, person(note.by), when(note.at, lang));
}
