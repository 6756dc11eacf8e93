import { z } from "zod";
import { toDecimalString } from "./decimal.js";
import { ServiceError, UnexpectedResponseError } from "./errors.js";
import type { ApiVersion, MethodCatalog, MethodEdit, PaymentMethod, PaymentsAccount } from "./model.js";
import { methodFromV3 } from "./normalize.js";
import { parseShape, type RequestFields, type RetryPolicy } from "./request.js";
import { methodV3Schema } from "./schemas.js";

/**
 * The method calls beyond the list (notes/methods.md): `method/edit/` (no signature: the login and
 * Secret 1 are enough) and v3 `method/get/`. The edit's answer says only that the request was taken,
 * so callers read the method again (getMethod) and trust that, never the request.
 */

/** What the method calls need of PaymentsClient: its requests (the register's budget) and version. */
export type MethodTransport = {
  post(
    version: ApiVersion,
    path: string,
    account: PaymentsAccount,
    fields: RequestFields,
    retry?: RetryPolicy,
  ): Promise<Record<string, unknown>>;
  versionOf(account: PaymentsAccount): ApiVersion;
};

/** A fresh method list of the account (PaymentsClient.listMethods, uncached). */
export type ListMethods = () => Promise<MethodCatalog>;

/**
 * A v2 edit of a method the fresh list does not have: nothing was sent (the unchanged fields are not
 * known). A ServiceError (a definite "no", nothing changed), though the words are Kassa's own.
 */
export class MethodNotListedError extends ServiceError {
  override readonly name = "MethodNotListedError";
  constructor(readonly code: string) {
    super([`The payment service does not list the method ${code} for this cash register.`]);
  }
}

/** method/get's answer: a method list entry, and (if the service names it) the method's code. */
const methodGetSchema = methodV3Schema.extend({ method: z.string().nullish() });

/** Method codes as the service spells them (letters, digits, `_`, `-`). */
const METHOD_CODE = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** A plain decimal, no sign or exponent: the surcharge as the service reads it. */
const PLAIN_DECIMAL = /^\d+(\.\d+)?$/;

/** An edit Kassa could never mean (a caller's bug): refused before anything is read or sent. */
function checkEdit(edit: MethodEdit): void {
  if (!METHOD_CODE.test(edit.code))
    throw new Error(`method edit: ${JSON.stringify(edit.code)} is not a method code`);
  if (edit.on === undefined && edit.surchargePercent === undefined)
    throw new Error(`method edit of ${edit.code}: nothing to change`);
  if (edit.surchargePercent !== undefined && !PLAIN_DECIMAL.test(edit.surchargePercent))
    throw new Error(`method edit of ${edit.code}: the surcharge is not a plain decimal`);
}

/**
 * The request's fields. v3 sends only what changes. v2 marks all three fields required, so what is
 * not changed is sent as a fresh method list has it (never an older cached one: that would undo a
 * change made meanwhile); a method missing from that list cannot be edited there, and nothing is sent.
 */
async function editFields(version: ApiVersion, edit: MethodEdit, list: ListMethods): Promise<RequestFields> {
  const fields: RequestFields = { method: edit.code };
  if (version === "v2" && (edit.on === undefined || edit.surchargePercent === undefined)) {
    const now = (await list()).methods.find((method) => method.code === edit.code);
    if (!now) throw new MethodNotListedError(edit.code);
    fields.enabled = edit.on ?? now.switchedOn;
    fields.extra_commission_percent =
      edit.surchargePercent ?? toDecimalString(now.extraCommissionPercent) ?? now.extraCommissionPercent;
    return fields;
  }
  if (edit.on !== undefined) fields.enabled = edit.on;
  if (edit.surchargePercent !== undefined) fields.extra_commission_percent = edit.surchargePercent;
  return fields;
}

/**
 * method/edit: ONE request. Like invoice/create it is never sent again once it may have arrived (a
 * time-out or a 502 may come after the service made the change): only a refused connection, when
 * nothing was sent, is retried. A refusal is a ServiceError with the service's words; a time-out or
 * a 5xx an UnreachableError, which means "not sure": read the method to know.
 */
export async function editMethod(
  t: MethodTransport,
  account: PaymentsAccount,
  edit: MethodEdit,
  list: ListMethods,
): Promise<void> {
  checkEdit(edit);
  const version = t.versionOf(account);
  const fields = await editFields(version, edit, list);
  await t.post(version, "method/edit/", account, fields, "not-sent");
}

/**
 * One method as the service has it now: v3 `method/get/`, v2 (which has no such call) a fresh method
 * list. undefined when the service does not list it as a payment method (unknown, or payout-only).
 * v3 refuses an unknown method in words not documented: a refusal is checked against a fresh list,
 * undefined when the method is not there, the refusal itself otherwise.
 */
export async function getMethod(
  t: MethodTransport,
  account: PaymentsAccount,
  code: string,
  list: ListMethods,
): Promise<PaymentMethod | undefined> {
  const fromList = async () => (await list()).methods.find((method) => method.code === code);
  const version = t.versionOf(account);
  if (version === "v2") return fromList();
  let body: Record<string, unknown>;
  try {
    body = await t.post(version, "method/get/", account, { method: code });
  } catch (error) {
    if (error instanceof ServiceError && (await fromList()) === undefined) return undefined;
    throw error;
  }
  const answer = parseShape(methodGetSchema, body);
  if (answer.method && answer.method !== code)
    throw new UnexpectedResponseError("wrong-shape", `asked for method ${code}, got ${answer.method}`);
  const method = methodFromV3(code, answer);
  if (method === "payout-only") return undefined;
  if ("reason" in method) throw new UnexpectedResponseError("wrong-shape", method.reason);
  return method;
}
