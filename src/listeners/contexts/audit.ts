import type { z } from "zod";
import { type AuditAction, type AuditRecorder, fingerprint, recordAct } from "../../audit/index.js";
import { MAIN_REGISTER } from "../../store/registers.js";
import type { Logger } from "../../util/logger.js";
import type { AuditNote, LogContext, Outcome } from "./outcome.js";

type Where = { kind: "command" | "action" | "view"; name: string; team: string; user: string };
type Act = { action: AuditAction; object: string; outcome: "done" | "refused"; reason?: string };

/** The acts of `/paymethods off|on|surcharge` and the alert's Switch off, by the action they note. */
const METHOD_ACTS: Record<string, AuditAction | undefined> = {
  "method-off": "method.switched",
  "method-on": "method.switched",
  "method-surcharge": "method.surcharge_set",
};

/** A trusted recipient's steps (src/payout-recipients records those it carries out). */
const RECIPIENT_ACTS = {
  add: "recipient.added",
  confirm: "recipient.confirmed",
  remove: "recipient.removed",
} as const satisfies Record<string, AuditAction>;

/** A batch's steps (src/payout-batches records those it carries out, and its own refusals). */
const BATCH_ACTS = {
  approve: "batch.approved",
  reject: "batch.rejected",
  drop: "batch.rows_dropped",
  cancel: "batch.cancelled",
} as const satisfies Record<string, AuditAction>;

/**
 * Which answered request is an act the audit trail keeps, decided from its outcome as data: one
 * place for every command, button and form (answer() and handledSubmission() ask it), so a new
 * act is one line here. Outcomes that changed nothing (help, usage, a failure) are not acts.
 */
export function auditedAct(
  where: Where,
  noted: LogContext & { audit?: AuditNote },
  outcome: Outcome,
): Act | undefined {
  const register = noted.register ?? MAIN_REGISTER;
  const object = noted.audit?.object;
  const feedObject = (channel: string) =>
    register === MAIN_REGISTER ? `feed ${channel}` : `feed ${channel} register ${register}`;
  const done = (action: AuditAction, fallback: string): Act => ({
    action,
    object: object ?? fallback,
    outcome: "done",
  });
  switch (outcome.outcome) {
    // A feed is its channel's: the entry names it (and the register, where it is not main).
    case "feed_subscribed":
      return done(where.kind === "view" ? "feed.form_saved" : "feed.subscribed", feedObject(outcome.channel));
    case "feed_unsubscribed":
      return done("feed.unsubscribed", feedObject(outcome.channel));
    case "digest_set":
      return done("digest.set", `digest ${outcome.digest}`);
    case "callback_rotated":
      return done("callback.rotated", `register ${register}`);
    case "export_started":
      return done("export.asked", `export ${noted.action ?? ""}`.trim());
    case "disconnected":
      return done("register.disconnected", `register ${register}`);
    case "register_set":
      return done("register.channel_set", `register ${register}`);
    case "connected":
      return done(
        hasLogin(noted.audit?.before) ? "register.edited" : "register.connected",
        `register ${register}`,
      );
    case "alert":
      if (outcome.alert === "set" || outcome.alert === "changed")
        return done("balance.alert_set", `balance alert ${register}`);
      return outcome.alert === "removed"
        ? done("balance.alert_removed", `balance alert ${register}`)
        : undefined;
    case "method_snoozed":
      return done("method.snoozed", `method ${outcome.method}`);
    case "audit_channel_set":
      return done("audit.channel_set", "audit channel");
    case "method_watch_saved":
      return done("method.watch_set", `methods watch ${register}`);
    case "method_watch_off":
      return outcome.was === "on" ? done("method.watch_off", `methods watch ${register}`) : undefined;
    // A policy change is recorded with its save, in the same step (payouts/policy-store.ts).
    case "created":
      return done("invoice.created", `invoice ${noted.invoice ?? ""}`.trim());
    // Requests and votes record their own acts (src/payouts); these refusals came before them.
    case "payout_refused":
      return { action: "payout.requested", object: "payout", outcome: "refused", reason: outcome.refusal };
    case "refund_refused":
      return refundRefused(noted.invoice, outcome.refusal);
    case "payout_vote_refused":
      return outcome.by === "slack"
        ? {
            action: where.name.includes("reject") ? "payout.rejected" : "payout.approved",
            object: `payout ${noted.payout ?? ""}`.trim(),
            outcome: "refused",
            reason: outcome.refusal,
          }
        : undefined;
    case "recipient_refused":
      return recipientRefused(outcome, noted.audit?.object);
    case "batch_refused":
      return batchRefused(outcome, noted.audit?.object);
    case "not_allowed":
      return notAnAdmin(where, noted);
    case "ok":
      if (noted.action === "language-en" || noted.action === "language-ru")
        return done("settings.language_changed", "language");
      return undefined;
    default:
      return undefined;
  }
}

/** A refund refused before its request (not paid, nothing left, more than is left). */
function refundRefused(invoice: string | undefined, refusal: string): Act {
  return {
    action: "refund.asked",
    object: `invoice ${invoice ?? ""}`.trim(),
    outcome: "refused",
    reason: refusal,
  };
}

/** A recipient's step refused before its use case wrote it down (the use case records the others). */
function recipientRefused(
  outcome: Extract<Outcome, { outcome: "recipient_refused" }>,
  object: string | undefined,
): Act | undefined {
  if (outcome.recorded) return undefined;
  const action = RECIPIENT_ACTS[outcome.act];
  return { action, object: object ?? "recipient", outcome: "refused", reason: outcome.refusal };
}

/** A person refused as not an admin: a method switch keeps its own action (switched, surcharge set). */
function notAnAdmin(where: Where, noted: LogContext & { audit?: AuditNote }): Act {
  const method = METHOD_ACTS[noted.action ?? ""];
  return {
    action: method ?? "act.refused",
    object: method ? (noted.audit?.object ?? "method") : `${where.name} ${noted.action ?? ""}`.trim(),
    outcome: "refused",
    reason: "not an admin",
  };
}

/** Records the act an answered request was, if it was one (see auditedAct); never throws. */
export async function recordAnswered(
  deps: { audit: AuditRecorder; logger: Logger },
  where: Where,
  noted: LogContext & { audit?: AuditNote },
  outcome: Outcome,
): Promise<void> {
  const act = auditedAct(where, noted, outcome);
  if (!act || !/^[TE][A-Z0-9]{2,20}$/.test(where.team)) return;
  await recordAct(deps.audit, deps.logger, {
    team: where.team,
    ...(noted.register && noted.register !== MAIN_REGISTER ? { register: noted.register } : {}),
    actor: where.user,
    ...act,
    ...(noted.audit?.before === undefined ? {} : { before: toJson(noted.audit.before) }),
    ...(noted.audit?.after === undefined ? {} : { after: toJson(noted.audit.after) }),
  });
}

/** A before/after as JSON the entry's schema takes (undefined fields dropped). */
function toJson(value: unknown): z.core.util.JSONType {
  return JSON.parse(JSON.stringify(value ?? null));
}

/** The workspace settings a connect form saves: who sees what, who creates, workflows, language. */
type FormSettings = {
  replyVisibility?: string | undefined;
  balanceVisibility?: string | undefined;
  invoiceCreators?: string | undefined;
  workflowCreates?: string | undefined;
  language?: string | undefined;
};

/**
 * A register's credentials and the workspace's settings before and after a connect form: keys by
 * their fingerprints only, enough to see that one changed (and match it to a key someone holds),
 * never to recover it; a setting the form left out keeps its value.
 */
export function connectionChange(
  name: string,
  stored: { login: string; account: { secret: string }; hasSalt: boolean } | undefined,
  typed: {
    login: string;
    secret: string;
    salt: string | undefined;
    apiVersion: string;
    visibility: string;
  } & FormSettings,
  settingsBefore: FormSettings,
): AuditNote {
  const chosen = definedOnly(pickSettings({ ...typed, replyVisibility: typed.visibility }));
  const after = pickSettings({ ...settingsBefore, ...chosen });
  return {
    object: `register ${name}`,
    before: {
      ...(stored
        ? { login: stored.login, secret: fingerprint(stored.account.secret), secret2: stored.hasSalt }
        : {}),
      settings: pickSettings(settingsBefore),
    },
    after: {
      login: typed.login,
      secret: fingerprint(typed.secret),
      secret2: typed.salt === undefined ? (stored?.hasSalt ?? false) : fingerprint(typed.salt),
      apiVersion: typed.apiVersion,
      settings: after,
    },
  };
}

/** Only the settings' own fields: whatever else an object carries never reaches an entry. */
function pickSettings(settings: FormSettings): FormSettings {
  const { replyVisibility, balanceVisibility, invoiceCreators, workflowCreates, language } = settings;
  return definedOnly({ replyVisibility, balanceVisibility, invoiceCreators, workflowCreates, language });
}

function definedOnly(settings: FormSettings): FormSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

/** A connect form's "before" held a connection (a login): an edit, not a first connection. */
function hasLogin(before: unknown): boolean {
  return typeof before === "object" && before !== null && "login" in before;
}

/** A click on a batch the listener refused (the use case records its own refusals). */
function batchRefused(
  outcome: Extract<Outcome, { outcome: "batch_refused" }>,
  object: string | undefined,
): Act | undefined {
  if (outcome.by === "kassa") return undefined;
  return {
    action: BATCH_ACTS[outcome.act],
    object: object ?? "batch",
    outcome: "refused",
    reason: outcome.refusal,
  };
}
