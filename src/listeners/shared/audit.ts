import type { z } from "zod";
import { type AuditAction, type AuditRecorder, fingerprint, recordAct } from "../../audit/index.js";
import { MAIN_REGISTER } from "../../store/registers.js";
import type { Logger } from "../../util/logger.js";
import type { AuditNote, LogContext, Outcome } from "./outcome.js";

type Where = { kind: "command" | "action" | "view"; name: string; team: string; user: string };
type Act = { action: AuditAction; object: string; outcome: "done" | "refused"; reason?: string };

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
  const done = (action: AuditAction, fallback: string): Act => ({
    action,
    object: object ?? fallback,
    outcome: "done",
  });
  switch (outcome.outcome) {
    case "feed_subscribed":
      return done(where.kind === "view" ? "feed.form_saved" : "feed.subscribed", "feed");
    case "feed_unsubscribed":
      return done("feed.unsubscribed", "feed");
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
        noted.audit?.before === undefined ? "register.connected" : "register.edited",
        `register ${register}`,
      );
    case "policy_saved":
      return done("payout.policy_changed", `payout policy ${register}`);
    case "created":
      return done("invoice.created", `invoice ${noted.invoice ?? ""}`.trim());
    case "not_allowed":
      return {
        action: "act.refused",
        object: `${where.name} ${noted.action ?? ""}`.trim(),
        outcome: "refused",
        reason: "not an admin",
      };
    case "ok":
      if (noted.action === "language-en" || noted.action === "language-ru")
        return done("settings.language_changed", "language");
      return undefined;
    default:
      return undefined;
  }
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

/**
 * A register's credentials before and after a connect form: keys by their fingerprints only, enough
 * to see that one changed (and match it to a key someone holds), never to recover it.
 */
export function connectionChange(
  name: string,
  stored: { login: string; account: { secret: string }; hasSalt: boolean } | undefined,
  typed: { login: string; secret: string; salt: string | undefined; apiVersion: string },
): AuditNote {
  return {
    object: `register ${name}`,
    ...(stored
      ? {
          before: {
            login: stored.login,
            secret: fingerprint(stored.account.secret),
            secret2: stored.hasSalt,
          },
        }
      : {}),
    after: {
      login: typed.login,
      secret: fingerprint(typed.secret),
      secret2: typed.salt === undefined ? (stored?.hasSalt ?? false) : fingerprint(typed.salt),
      apiVersion: typed.apiVersion,
    },
  };
}
