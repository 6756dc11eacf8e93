import { z } from "zod";
import { recordAct } from "../audit/index.js";
import { outsidePayoutMessage } from "../blocks/guards.js";
import type { PayoffHistoryEntry } from "../payments/payoff-model.js";
import { payoutsOn } from "../payouts/policy.js";
import { PAYOUT_FAMILY, REQUEST_FIELD } from "../payouts/request-model.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import { PAYOUT_WATCH_FAMILY } from "./alerts.js";
import { postGuardMessage } from "./balance-check.js";
import type { GuardDeps } from "./deps.js";

// Payouts made outside Kassa: each register with payouts on is an item of family `payout-watch`,
// checked by one replica at a time (its claim). Its state `seen` lists the payout ids already looked
// at; the first read only notes what is there. A payout in the history that is neither seen nor one
// of Kassa's own requests (family `payout`) is posted once in the policy's approval channel and
// written to the audit trail, then noted as seen. A payout still `created` (a quote) is left for the
// next read: Kassa writes its own request down just after the service quotes it.

const SEEN_FIELD = "seen";
/** The ids kept: more than the pages read, so a payout never comes back as new. */
const SEEN_KEPT = 1000;
const PAGE_ITEMS = 100;
/** Pages read at most per check (newest first): a register's read budget per check. */
const MAX_PAGES = 3;

const seenSchema = z.object({ v: z.literal(1), ids: z.array(z.string()).max(SEEN_KEPT) });

/** Every connected register is enlisted (keeping its schedule); the check skips those with payouts off. */
export async function enlistRegisters(deps: GuardDeps, now: number): Promise<void> {
  for (const key of await deps.registers()) await deps.board.enlist(PAYOUT_WATCH_FAMILY, key, now);
}

/** The newest payouts not in `seen`, newest first, reading further pages while a whole page is new. */
async function unseen(
  deps: GuardDeps,
  registerKey: string,
  seen: ReadonlySet<string>,
): Promise<PayoffHistoryEntry[]> {
  const found: PayoffHistoryEntry[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const read = await deps.payments.payoffHistory(registerKey, page, PAGE_ITEMS);
    const fresh = read.entries.filter((entry) => !seen.has(entry.id));
    found.push(...fresh);
    if (fresh.length < read.entries.length || read.entries.length < PAGE_ITEMS || read.hasNextPage === false)
      break;
  }
  return found;
}

/** One register's check, under its claim; returns when it is next due. */
export async function checkPayouts(
  deps: GuardDeps,
  registerKey: string,
  token: string,
  now: number,
): Promise<number> {
  const due = now + deps.payoutCheckMs;
  const policy = await deps.policies.get(registerKey);
  if (!policy || !payoutsOn(policy)) return due;
  const stored = seenSchema.safeParse(
    await deps.board.readState(PAYOUT_WATCH_FAMILY, registerKey, SEEN_FIELD),
  );
  const seen = new Set(stored.success ? stored.data.ids : []);
  let entries: PayoffHistoryEntry[];
  try {
    entries = await unseen(deps, registerKey, seen);
  } catch (error) {
    deps.logger.warn({ register: registerKey, err: error }, "could not read the payout history");
    return due;
  }
  const noted: string[] = [];
  if (stored.success) {
    const { team } = registerOfKey(registerKey);
    const lang = await deps.languageOf(team);
    // Oldest first, as they happened.
    for (const entry of [...entries].reverse()) {
      if (entry.state === "created") continue;
      if ((await deps.board.readState(PAYOUT_FAMILY, entry.id, REQUEST_FIELD)) === undefined) {
        const sent = await postGuardMessage(deps, team, policy.channel, outsidePayoutMessage(entry, lang));
        if (!sent) continue;
        await recordOutside(deps, registerKey, entry, now);
      }
      noted.push(entry.id);
    }
  } else {
    noted.push(...entries.filter((entry) => entry.state !== "created").map((entry) => entry.id));
    deps.logger.info({ register: registerKey, noted: noted.length }, "payout watch started: history noted");
  }
  const ids = [...noted, ...seen].slice(0, SEEN_KEPT);
  if (!(await deps.board.writeState(PAYOUT_WATCH_FAMILY, registerKey, SEEN_FIELD, token, { v: 1, ids })))
    deps.logger.warn({ register: registerKey }, "lost the payout watch's claim before noting what it saw");
  return due;
}

async function recordOutside(
  deps: GuardDeps,
  registerKey: string,
  entry: PayoffHistoryEntry,
  now: number,
): Promise<void> {
  const { team, name } = registerOfKey(registerKey);
  deps.logger.warn(
    { team, register: registerKey, payout: entry.id, outcome: "payout_outside" },
    "a payout made outside Kassa",
  );
  await recordAct(deps.audit, deps.logger, {
    time: new Date(now).toISOString(),
    team,
    ...(name === MAIN_REGISTER ? {} : { register: name }),
    actor: "kassa",
    action: "payout.outside",
    object: `payout ${entry.id}`,
    after: {
      amount: entry.amount?.value ?? null,
      currency: entry.amount?.currency ?? null,
      method: entry.method,
      wallet: entry.wallet,
      serviceState: entry.state,
      createdAt: entry.createdAt?.text ?? null,
    },
    outcome: "done",
  });
}

/** Runs the due registers' payout checks, each under its claim. */
export async function runPayoutChecks(deps: GuardDeps, now: number): Promise<number> {
  const claims = await deps.board.claimDue(PAYOUT_WATCH_FAMILY, now, deps.leaseMs, deps.batch);
  for (const { key, token } of claims) {
    let dueAt = now + deps.payoutCheckMs;
    try {
      dueAt = await checkPayouts(deps, key, token, now);
    } catch (error) {
      deps.logger.error({ register: key, err: error }, "a payout check failed");
    }
    await deps.board.release(PAYOUT_WATCH_FAMILY, key, token, { dueAt }).catch(() => false);
  }
  return claims.length;
}
