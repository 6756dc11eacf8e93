import type { webApi } from "@slack/bolt";
import { PAYOUT_CALLBACK_QUERY } from "../../callbacks/receive.js";
import type { Lang } from "../../i18n/lang.js";
import { PAYOUT_BATCH_TEXT } from "../../i18n/payout-batch.js";
import { type BatchRefusal, quoteBatch, startBatch } from "../../payout-batches/create.js";
import type { PastedRow } from "../../payout-batches/rows.js";
import { announceBatch } from "../../payout-batches/show.js";
import { within } from "../../util/within.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";

/** How long a batch waits for the register's balances (its card shows each method's against its total). */
const BALANCES_BUDGET_MS = 2000;

export type BatchAskDeps = ManagerDeps &
  Pick<ListenerDeps, "payouts" | "payments" | "now" | "callbacks" | "logger">;

export type BatchAsked = {
  team: string;
  user: string;
  enterpriseId?: string | undefined;
  register: { key: string; name: string; several: boolean };
  lang: Lang;
  reason: string;
  rows: PastedRow[];
};

/**
 * A batch from Slack, after the form closed: checked and written (startBatch: a refusal says why and
 * writes nothing), the requester told it is under way, every row quoted in turn, then its card
 * posted in the approval channel (by the follower, when Slack did not take it now).
 */
export async function askBatch(
  deps: BatchAskDeps,
  client: webApi.WebClient,
  asked: BatchAsked,
): Promise<{ kind: "asked"; id: string } | { kind: "refused"; refusal: BatchRefusal }> {
  const who = { userId: asked.user, teamId: asked.team, enterpriseId: asked.enterpriseId };
  const payouts = { ...deps.payouts, isAdmin: async () => (await checkManager(deps, client, who)).allowed };
  const report = await within(
    deps.payments.balances(asked.register.key).catch(() => null),
    BALANCES_BUDGET_MS,
  );
  const balances = (report?.balances ?? []).map((one) => ({
    method: one.code.toUpperCase(),
    value: one.amount.value,
    currency: one.amount.currency,
  }));
  const callbackUrl =
    deps.callbacks && `${await deps.callbacks.address(asked.register.key)}${PAYOUT_CALLBACK_QUERY}`;
  const ask = {
    registerKey: asked.register.key,
    requester: asked.user,
    reason: asked.reason,
    rows: asked.rows,
    balances,
    callbackUrl,
    card: { register: asked.register.name, several: asked.register.several, lang: asked.lang },
  };
  const started = await startBatch(payouts, ask, deps.now());
  if (started.kind === "refused") return started;
  const t = PAYOUT_BATCH_TEXT[asked.lang];
  const channel = (await deps.payouts.policies.get(asked.register.key))?.channel ?? asked.user;
  const quoting = asked.rows.length;
  await client.chat
    .postMessage({ channel: asked.user, text: t.started(quoting, `<#${channel}>`) })
    .catch(() => undefined);
  const batch = started.batch;
  const waiting = await quoteBatch(payouts, batch, ask, deps.now);
  if (!waiting) return { kind: "asked", id: batch.id };
  await announceBatch(deps.payouts, client, batch.id, deps.now());
  return { kind: "asked", id: batch.id };
}
