import { z } from "zod";
import { recordAct } from "../audit/index.js";
import { outsidePayoutMessage } from "../blocks/guards.js";
import type { PayoffHistoryEntry } from "../payments/payoff-model.js";
import { payoutsOn } from "../payouts/policy.js";
import { PAYOUT_FAMILY, REQUEST_FIELD } from "../payouts/request-model.js";
import { MAIN_REGISTER, registerOfKey } from "../store/registers.js";
import { PAYOUT_WATCH_FAMILY } from "./alerts.js";
import { checkClaimed, postGuardMessage } from "./claimed.js";
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

/** The ids seen (newest first), and those written to the audit trail but not yet posted. */
const seenSchema = z.object({
  v: z.literal(1),
  ids: z.array(z.string()).max(SEEN_KEPT),
  audited: z.array(z.string()).max(SEEN_KEPT).optional(),
});
type Seen = z.infer<typeof seenSchema>;
/** Payouts audited and waiting for their post (the approval channel refusing them) kept at most. */
const AUDITED_KEPT = 100;

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
  const state: Seen = stored.success ? stored.data : { v: 1, ids: [] };
  let entries: PayoffHistoryEntry[];
  try {
    entries = await unseen(deps, registerKey, new Set(state.ids));
  } catch (error) {
    deps.logger.warn({ register: registerKey, err: error }, "could not read the payout history");
    return due;
  }
  // A quote (`created`) moved no money, and may be Kassa's own not yet written down: looked at next time.
  const settled = entries.filter((entry) => entry.state !== "created");
  const write = (next: Seen) =>
    deps.board.writeState(PAYOUT_WATCH_FAMILY, registerKey, SEEN_FIELD, token, next);
  if (!stored.success) {
    await write({ v: 1, ids: settled.map((entry) => entry.id).slice(0, SEEN_KEPT) });
    deps.logger.info({ register: registerKey, noted: settled.length }, "payout watch started: history noted");
    return due;
  }
  let current = state;
  // Oldest first, as they happened; each written down as soon as it is told, so a crash repeats none.
  for (const entry of [...settled].reverse()) {
    const next = await reportOne(deps, registerKey, policy.channel, entry, current, now);
    if (next === current) continue;
    if (!(await write(next))) {
      deps.logger.warn({ register: registerKey }, "lost the payout watch's claim before noting what it saw");
      return due;
    }
    current = next;
  }
  return due;
}

/**
 * One payout not seen before: Kassa's own is only noted; another is written to the audit trail
 * (once: noted in `audited`) and posted in the approval channel, then noted as seen. A post that
 * fails leaves it audited and unseen, for the next check.
 */
async function reportOne(
  deps: GuardDeps,
  registerKey: string,
  channel: string,
  entry: PayoffHistoryEntry,
  state: Seen,
  now: number,
): Promise<Seen> {
  const seen = (audited: string[]) => ({
    v: 1 as const,
    ids: [entry.id, ...state.ids].slice(0, SEEN_KEPT),
    audited,
  });
  const audited = state.audited ?? [];
  if ((await deps.board.readState(PAYOUT_FAMILY, entry.id, REQUEST_FIELD)) !== undefined)
    return seen(audited);
  let after = audited;
  if (!audited.includes(entry.id)) {
    await recordOutside(deps, registerKey, entry, now);
    after = [entry.id, ...audited].slice(0, AUDITED_KEPT);
  }
  const { team } = registerOfKey(registerKey);
  const message = outsidePayoutMessage(entry, await deps.languageOf(team));
  if (await postGuardMessage(deps, team, channel, message))
    return seen(after.filter((id) => id !== entry.id));
  return after === audited ? state : { ...state, audited: after };
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
export function runPayoutChecks(deps: GuardDeps, now: number): Promise<number> {
  return checkClaimed(deps, PAYOUT_WATCH_FAMILY, now, deps.payoutCheckMs, (key, token, at) =>
    checkPayouts(deps, key, token, at),
  );
}
