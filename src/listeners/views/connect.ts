import type { types, webApi } from "@slack/bolt";
import { CONNECT_FIELDS, checkingModal, connectedModal, connectModal } from "../../blocks/connect-modal.js";
import { fieldError } from "../../blocks/form.js";
import { CONNECT_VIEW } from "../../blocks/ids.js";
import { DEFAULT_LANG, type Lang } from "../../i18n/lang.js";
import { NOTICES_TEXT } from "../../i18n/notices.js";
import { ServiceError, UnexpectedResponseError, UnreachableError } from "../../payments/errors.js";
import type { PaymentsAccount } from "../../payments/model.js";
import { MAIN_REGISTER } from "../../store/registers.js";
import { within } from "../../util/within.js";
import { connectionChange } from "../contexts/audit.js";
import { handledSubmission, type ViewAnswer } from "../contexts/handled.js";
import type { Outcome } from "../contexts/outcome.js";
import { readSubmission, viewContext } from "../contexts/view-context.js";
import type { ListenerDeps } from "../deps.js";
import type { ViewArgs } from "../router.js";
import { checkManager } from "../workspace/permissions.js";
import {
  balanceVisibilityFor,
  invoiceCreatorsFor,
  langFor,
  type ModalOrigin,
  publishHome,
} from "../workspace/settings.js";
import {
  type ConnectValues,
  type FormRegister,
  formSchema,
  originSchema,
  registerOfForm,
} from "./connect-form.js";

/** Longest wait for the credential check before answering Slack, which wants an answer within 3 s. */
const INLINE_CHECK_MS = 2000;

type ConnectDeps = Pick<
  ListenerDeps,
  | "adminUserIds"
  | "stores"
  | "feeds"
  | "logger"
  | "inFlight"
  | "defaultApiVersion"
  | "payments"
  | "replyVisibility"
  | "callbacks"
  | "audit"
>;

type Check = { ok: true; methods: number } | { ok: false; message: string };

/** Why credentials failed, in words for the field; never the secret. */
function checkFailure(error: unknown, lang: Lang): string {
  const t = NOTICES_TEXT[lang];
  if (error instanceof ServiceError) return t.refusedThem(error.messages.join("; "));
  if (error instanceof UnreachableError)
    return t.couldNotCheck(
      error.reason === "http-status"
        ? t.unreachable.status(error.status)
        : error.reason === "timeout"
          ? t.unreachable.timeout
          : t.unreachable.network,
    );
  if (error instanceof UnexpectedResponseError) return t.couldNotRead;
  return t.couldNotCheckKassa;
}

/**
 * The connect modal's submit: check the submitter again, validate, try the credentials with a
 * method-list call, then save. The modal was only opened for people allowed to manage the
 * connection, but a submission is a request of its own (forged, or sent after the person lost the
 * role), so it is checked again before anything is tried or saved.
 */
export const connectSubmission =
  (deps: ConnectDeps) =>
  async ({ ack, body, view, client }: ViewArgs): Promise<void> => {
    const started = performance.now();
    const { team, user, enterpriseId, lang } = await viewContext(deps, body);
    const who = { userId: user, teamId: team, enterpriseId };
    const field = CONNECT_FIELDS.login;
    const origin = { view: CONNECT_VIEW, team: who.teamId, user: who.userId, field, lang };
    await handledSubmission(deps, origin, ack, async (note, reply) => {
      const form = readSubmission(view, who.teamId, { origin: originSchema, values: formSchema });
      if (!form) {
        await reply(fieldError(CONNECT_FIELDS.login, NOTICES_TEXT[lang].formOutdatedConnect));
        return { outcome: "bad_form" };
      }
      const manager = await checkManager(deps, client, who);
      note({ manager: manager.why });
      if (!manager.allowed) {
        await reply(fieldError(CONNECT_FIELDS.login, NOTICES_TEXT[lang].connectNotAllowed));
        return { outcome: "not_allowed" };
      }
      const values = form.values;
      note({ apiVersion: values.apiVersion });
      const typed = await typedCredentials(deps, who.teamId, values, form.origin.r, lang);
      if (typed.register && typed.register.name !== MAIN_REGISTER) note({ register: typed.register.name });
      if ("field" in typed) {
        await reply(fieldError(typed.field, typed.error));
        return { outcome: "invalid", fields: [typed.field] };
      }
      const { register, stored, secret } = typed;
      const account: PaymentsAccount = { login: values.login, secret, apiVersion: values.apiVersion };
      const settingsBefore = await deps.stores.settings.get(who.teamId).catch(() => ({}));
      note({ audit: connectionChange(register.name, stored, { ...values, secret }, settingsBefore) });
      const check: Promise<Check> = deps.payments.tryAccount(account).then(
        (catalog) => ({ ok: true, methods: catalog.methods.length }),
        (error: unknown) => ({ ok: false, message: checkFailure(error, lang) }),
      );
      // The role check above used part of Slack's 3 s; the credential check gets what is left.
      const quick = await within(check, INLINE_CHECK_MS - (performance.now() - started));
      const connection = { deps, client, who, values, secret, from: form.origin.from, register };
      if (quick) return answerInTime(connection, quick, reply);
      // Slow service: answer Slack now with a "checking" screen, finish the check, then update it.
      note({ slow: true });
      await reply({ response_action: "update", view: checkingModal(lang) });
      return answerLater(connection, await check, stored, view);
    });
  };

/** The register, and the secret to try (blank: the one stored); or the field that needs more. */
async function typedCredentials(
  deps: ConnectDeps,
  team: string,
  values: ConnectValues,
  openedFor: string | undefined,
  lang: Lang,
): Promise<
  | { register: FormRegister; stored: StoredConnection; secret: string }
  | { register?: FormRegister; field: string; error: string }
> {
  const register = await registerOfForm(deps, team, values.register || openedFor, lang);
  if ("error" in register) return { field: CONNECT_FIELDS.register, error: register.error };
  const stored = await deps.stores.credentials.get(register.key).catch(() => undefined);
  const secret = values.typedSecret === "" ? stored?.account.secret : values.typedSecret;
  if (values.login === "")
    return { register, field: CONNECT_FIELDS.login, error: NOTICES_TEXT[lang].enterLogin };
  if (!secret) return { register, field: CONNECT_FIELDS.secret, error: NOTICES_TEXT[lang].enterSecret };
  return { register, stored, secret };
}

type StoredConnection = Awaited<ReturnType<ConnectDeps["stores"]["credentials"]["get"]>>;

/** The check ended after Slack was answered: the "checking" screen becomes the result. */
async function answerLater(
  connection: Connection,
  result: Check,
  stored: StoredConnection,
  view: ViewArgs["view"],
): Promise<Outcome> {
  const { deps, client, who } = connection;
  const next = result.ok
    ? await save(connection, result.methods)
    : await connectModalAgain(connection, stored, result.message, view.private_metadata);
  await client.views.update({ view_id: view.id, view: next }).catch((error: unknown) => {
    deps.logger.warn({ team: who.teamId, err: error }, "could not update the connect modal");
  });
  if (!result.ok) return { outcome: "refused", inline: false };
  await refreshHome(connection);
  return { outcome: "connected" };
}

type Connection = {
  deps: ConnectDeps;
  client: webApi.WebClient;
  who: { userId: string; teamId: string; enterpriseId?: string | undefined };
  values: ConnectValues;
  secret: string;
  from: ModalOrigin["from"];
  register: FormRegister;
};

async function answerInTime(
  connection: Connection,
  check: Check,
  reply: (answer?: ViewAnswer) => Promise<void>,
): Promise<Outcome> {
  if (!check.ok) {
    await reply(fieldError(CONNECT_FIELDS.secret, check.message.slice(0, 300)));
    return { outcome: "refused", inline: true };
  }
  await reply({ response_action: "update", view: await save(connection, check.methods) });
  await refreshHome(connection);
  return { outcome: "connected" };
}

/** Saves what was checked: the credentials (sealed), the settings chosen, and forgets cached answers. */
async function save(
  { deps, who, values, secret, register }: Connection,
  methods: number,
): Promise<types.ModalView> {
  const info = await deps.stores.credentials.set(register.key, {
    login: values.login,
    secret,
    salt: values.salt,
    apiVersion: values.apiVersion,
    connectedBy: who.userId,
  });
  await deps.stores.settings.update(who.teamId, {
    replyVisibility: values.visibility,
    ...(values.language ? { language: values.language } : {}),
    ...(values.balanceVisibility ? { balanceVisibility: values.balanceVisibility } : {}),
    ...(values.invoiceCreators ? { invoiceCreators: values.invoiceCreators } : {}),
    ...(values.workflowCreates ? { workflowCreates: values.workflowCreates } : {}),
  });
  if (register.name !== MAIN_REGISTER)
    await deps.stores.registers.addOther(who.teamId, register.name, who.userId);
  if (values.channels !== undefined)
    await deps.stores.registers.limitTo(who.teamId, register.name, values.channels);
  await deps.payments.forgetCached(register.key);
  // Said in the language just chosen.
  const lang = values.language ?? (await langFor(deps, who.teamId).catch(() => DEFAULT_LANG));
  return connectedModal(info, methods, deps.defaultApiVersion, lang);
}

/** The form again, as typed (never the secret), with why the check failed. */
async function connectModalAgain(
  { deps, who, values, register }: Connection,
  stored: { hasSalt?: boolean } | undefined,
  error: string,
  privateMetadata: string,
): Promise<types.ModalView> {
  return connectModal({
    register: register.name,
    channels: values.channels,
    login: values.login,
    hasSecret: stored !== undefined,
    hasSalt: stored?.hasSalt,
    apiVersion: values.apiVersion,
    visibility: values.visibility,
    balanceVisibility:
      values.balanceVisibility ??
      (await balanceVisibilityFor(deps, who.teamId).catch(() => "admins" as const)),
    invoiceCreators:
      values.invoiceCreators ?? (await invoiceCreatorsFor(deps, who.teamId).catch(() => "admins" as const)),
    workflowCreates: values.workflowCreates,
    error,
    privateMetadata,
    lang: values.language ?? (await langFor(deps, who.teamId).catch(() => DEFAULT_LANG)),
  });
}

/** App Home shows the connection: publish it again when the form was opened from there. */
async function refreshHome({ deps, client, who, from }: Connection): Promise<void> {
  if (from === "home") await publishHome(deps, client, who).catch(() => undefined);
}
