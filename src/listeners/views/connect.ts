import { z } from "zod";
import type { BalanceVisibility } from "../../blocks/balance.js";
import { CONNECT_FIELDS, checkingModal, connectedModal, connectModal } from "../../blocks/connect-modal.js";
import { CONNECT_VIEW } from "../../blocks/ids.js";
import { ServiceError, UnexpectedResponseError, UnreachableError } from "../../payments/errors.js";
import type { ApiVersion, PaymentsAccount } from "../../payments/model.js";
import type { ListenerDeps } from "../deps.js";
import { balanceVisibilityFor, invoiceCreatorsFor, type ModalOrigin, publishHome } from "../manage.js";
import { checkManager } from "../permissions.js";
import type { ViewArgs } from "../router.js";
import { teamIdOf } from "../team.js";
import { parseJsonOrUndefined, selectValue, textValue } from "./form.js";

/** Longest wait for the credential check before answering Slack, which wants an answer within 3 s. */
const INLINE_CHECK_MS = 2000;

const originSchema = z.object({ from: z.enum(["command", "home"]), t: z.string().min(1) });
/** The parts of view.state.values the modal defines; anything else in the payload is ignored. */
const formSchema = z.object({
  [CONNECT_FIELDS.login]: z.object({ value: textValue }),
  [CONNECT_FIELDS.secret]: z.object({ value: textValue }),
  // Absent from forms opened before Secret 2 was asked for: the stored one is kept.
  [CONNECT_FIELDS.salt]: z.object({ value: textValue }).optional(),
  [CONNECT_FIELDS.apiVersion]: z.object({ value: selectValue }),
  [CONNECT_FIELDS.visibility]: z.object({ value: selectValue }),
  // Absent from forms opened before the setting existed: the stored choice is kept.
  [CONNECT_FIELDS.balanceVisibility]: z.object({ value: selectValue }).optional(),
  [CONNECT_FIELDS.invoiceCreators]: z.object({ value: selectValue }).optional(),
});

type Check = { ok: true; methods: number } | { ok: false; message: string };

/** Why credentials failed, in words for the field; never the secret. */
function checkFailure(error: unknown): string {
  if (error instanceof ServiceError) return `The payment service refused them: ${error.messages.join("; ")}`;
  if (error instanceof UnreachableError)
    return `Could not check them: ${error.message}. Try again in a minute.`;
  if (error instanceof UnexpectedResponseError)
    return "Could not check them: the payment service sent an answer Kassa cannot read.";
  return "Could not check them because of an error on Kassa's side.";
}

/**
 * The connect modal's submit: check the submitter again, validate, try the credentials with a
 * method-list call, then save. The modal was only opened for people allowed to manage the
 * connection, but a submission is a request of its own (forged, or sent after the person lost the
 * role), so it is checked again before anything is tried or saved.
 */
export const connectSubmission =
  (
    deps: Pick<
      ListenerDeps,
      | "adminUserIds"
      | "stores"
      | "logger"
      | "defaultApiVersion"
      | "payments"
      | "replyVisibility"
      | "callbacks"
    >,
  ) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const started = performance.now();
    const userId = body.user.id;
    const origin = originSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
    const form = formSchema.safeParse(view.state.values);
    const teamId = teamIdOf(body);
    const log = (fields: Record<string, unknown>) =>
      deps.logger.info(
        {
          view: CONNECT_VIEW,
          team: teamId,
          user: userId,
          latencyMs: Math.round(performance.now() - started),
          ...fields,
        },
        "view handled",
      );
    if (!origin.success || !form.success || origin.data.t !== teamId) {
      await ack({
        response_action: "errors",
        errors: { [CONNECT_FIELDS.login]: "This form is out of date. Close it and open it again." },
      });
      log({ outcome: "bad_form" });
      return;
    }
    const manager = await checkManager(deps, client, {
      userId,
      teamId,
      enterpriseId: body.enterprise?.id,
    });
    if (!manager.allowed) {
      await ack({
        response_action: "errors",
        errors: {
          [CONNECT_FIELDS.login]:
            "Only workspace admins and owners, the person who installed Kassa, and people the operator lists can change the connection. Nothing was saved.",
        },
      });
      return log({ outcome: "not_allowed", why: manager.why });
    }
    const values = form.data;
    const login = values[CONNECT_FIELDS.login].value.value?.trim() ?? "";
    const typedSecret = values[CONNECT_FIELDS.secret].value.value ?? "";
    // Blank keeps the stored Secret 2 (undefined); a typed one replaces it.
    const salt = values[CONNECT_FIELDS.salt]?.value.value?.trim() || undefined;
    const apiVersion = (
      values[CONNECT_FIELDS.apiVersion].value.selected_option?.value === "v3" ? "v3" : "v2"
    ) as ApiVersion;
    const visibility =
      values[CONNECT_FIELDS.visibility].value.selected_option?.value === "private" ? "private" : "channel";
    const balanceChoice = values[CONNECT_FIELDS.balanceVisibility]?.value.selected_option?.value;
    const balanceVisibility: BalanceVisibility | undefined =
      balanceChoice === "everyone" ? "everyone" : balanceChoice === "admins" ? "admins" : undefined;
    const creatorsChoice = values[CONNECT_FIELDS.invoiceCreators]?.value.selected_option?.value;
    const invoiceCreators: BalanceVisibility | undefined =
      creatorsChoice === "everyone" ? "everyone" : creatorsChoice === "admins" ? "admins" : undefined;

    const stored = await deps.stores.credentials.get(teamId).catch(() => undefined);
    const secret = typedSecret.trim() === "" ? stored?.account.secret : typedSecret.trim();
    if (login === "") {
      await ack({
        response_action: "errors",
        errors: { [CONNECT_FIELDS.login]: "Enter the cash register's login." },
      });
      return log({ outcome: "invalid" });
    }
    if (!secret) {
      await ack({
        response_action: "errors",
        errors: { [CONNECT_FIELDS.secret]: "Enter the cash register's secret." },
      });
      return log({ outcome: "invalid" });
    }

    const account: PaymentsAccount = { login, secret, apiVersion };
    const check: Promise<Check> = deps.payments.tryAccount(account).then(
      (catalog) => ({ ok: true, methods: catalog.methods.length }),
      (error: unknown) => ({ ok: false, message: checkFailure(error) }),
    );
    const save = async (methods: number) => {
      const info = await deps.stores.credentials.set(teamId, {
        login,
        secret,
        salt,
        apiVersion,
        connectedBy: userId,
      });
      await deps.stores.settings.update(teamId, {
        replyVisibility: visibility,
        ...(balanceVisibility ? { balanceVisibility } : {}),
        ...(invoiceCreators ? { invoiceCreators } : {}),
      });
      await deps.payments.forgetCached(teamId);
      return connectedModal(info, methods, deps.defaultApiVersion);
    };
    const refreshHome = async (from: ModalOrigin["from"]) => {
      if (from === "home") await publishHome(deps, client, { userId, teamId }).catch(() => undefined);
    };
    // The role check above used part of Slack's 3 s; the credential check gets what is left.
    const inlineMs = Math.max(0, INLINE_CHECK_MS - (performance.now() - started));
    const quick = await Promise.race([
      check,
      new Promise<null>((resolve) => setTimeout(resolve, inlineMs, null)),
    ]);

    if (quick) {
      if (!quick.ok) {
        await ack({
          response_action: "errors",
          errors: { [CONNECT_FIELDS.secret]: quick.message.slice(0, 300) },
        });
        return log({ outcome: "refused", apiVersion });
      }
      const done = await save(quick.methods);
      await ack({ response_action: "update", view: done });
      await refreshHome(origin.data.from);
      return log({ outcome: "connected", apiVersion });
    }

    // Slow service: answer Slack now with a "checking" screen, finish the check, then update it.
    await ack({ response_action: "update", view: checkingModal() });
    const result = await check;
    const next = result.ok
      ? await save(result.methods)
      : connectModal({
          login,
          hasSecret: stored !== undefined,
          hasSalt: stored?.hasSalt,
          apiVersion,
          visibility,
          balanceVisibility:
            balanceVisibility ?? (await balanceVisibilityFor(deps, teamId).catch(() => "admins" as const)),
          invoiceCreators:
            invoiceCreators ?? (await invoiceCreatorsFor(deps, teamId).catch(() => "admins" as const)),
          error: result.message,
          privateMetadata: view.private_metadata,
        });
    await client.views.update({ view_id: view.id, view: next }).catch((error: unknown) => {
      deps.logger.warn({ team: teamId, err: error }, "could not update the connect modal");
    });
    if (result.ok) await refreshHome(origin.data.from);
    log({ outcome: result.ok ? "connected" : "refused", apiVersion, slow: true });
  };
