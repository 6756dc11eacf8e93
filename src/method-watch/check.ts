import { methodFailingNote } from "../blocks/method-watch.js";
import { settleUnsure } from "../paymethods/switch-settle.js";
import { type MethodSwitchState, readSwitch } from "../paymethods/switch-state.js";
import { registerOfKey } from "../store/registers.js";
import { decideCheck, decideReadFailure, type ListedMethod } from "./decide.js";
import type { MethodWatchDeps } from "./deps.js";
import { changedCodes } from "./outside.js";
import { postIn, tell } from "./posts.js";
import { readService, type ServiceRead } from "./read.js";
import { changeWatch, METHOD_WATCH_FAMILY, readWatch } from "./state.js";

// One register's check, under its claim on the `method-watch` item (one replica at a time): the
// method list and the kept history read, the claim renewed (a long first read may have outlived it),
// each method decided (decide.ts), the decision written by compare-and-set, and only then the posts.
// A post that fails is undone (posts.ts), so the next check says it again.

/** A register whose watch is off is looked at again this much later (turned on, it is nudged at once). */
export const IDLE_MS = 24 * 3_600_000;

/** When the register is next due; "lost": its claim went to another replica meanwhile (leave it). */
export type CheckOutcome = { dueAt: number } | "lost";

export async function checkRegister(
  deps: MethodWatchDeps,
  registerKey: string,
  token: string,
  now: number,
): Promise<CheckOutcome> {
  const current = await readWatch(deps.board, registerKey);
  // Off: nothing is read. The item stays (with the methods last seen, so a change made while the
  // watch was off is still news when it is on again); forgetting it here could drop a form's save
  // that came in meanwhile.
  if (!current.settings) {
    // Turned on again (maybe after a reconnect to another account), it starts from a whole read.
    deps.usual.forget(registerKey);
    return { dueAt: now + IDLE_MS };
  }
  const due = { dueAt: now + deps.checkMs };
  let read: ServiceRead;
  try {
    read = await readService(deps, registerKey, now, current.settings.failure.windowMinutes);
  } catch (error) {
    await failedRead(deps, registerKey, now, error);
    return due;
  }
  if (!(await deps.board.renew(METHOD_WATCH_FAMILY, registerKey, token, deps.clock.now(), deps.leaseMs)))
    return "lost";
  const changed = changedCodes(current.seen, read.methods);
  const records = new Map(
    await Promise.all(
      changed.map(async (code) => [code, await readSwitch(deps.board, registerKey, code)] as const),
    ),
  );
  await settleSwitches(deps, registerKey, records, read.methods, now);
  const decided = await changeWatch(deps.board, registerKey, (state) => {
    // Turned off meanwhile: nothing written, nothing said.
    if (!state.settings) return { result: undefined };
    const input = { methods: read.methods, figures: read.figures, records, now, calmMs: deps.calmMs };
    const { next, posts } = decideCheck(state, state.settings, input);
    return { next, result: { posts, settings: state.settings } };
  });
  if (decided && decided.posts.length > 0)
    await tell(deps, registerKey, decided.settings, decided.posts, now);
  return due;
}

/**
 * A method's switch answered "not sure" (its edit's answer lost) is settled by this fresh read, as by
 * any read of Kassa's (paymethods/switch-settle.ts); the records read before still tell it from news.
 */
async function settleSwitches(
  deps: MethodWatchDeps,
  registerKey: string,
  records: ReadonlyMap<string, MethodSwitchState>,
  methods: readonly ListedMethod[],
  now: number,
): Promise<void> {
  for (const [code, record] of records) {
    if (record.pending?.state !== "unsure") continue;
    const listed = methods.find((method) => method.code === code);
    const state = listed && { switchedOn: listed.on, extraCommissionPercent: listed.surcharge };
    await settleUnsure(deps, registerKey, code, state, now);
  }
}

/** A check whose read failed: marked failing; after an hour, the channel told (at most once an hour). */
async function failedRead(deps: MethodWatchDeps, registerKey: string, now: number, error: unknown) {
  const { team } = registerOfKey(registerKey);
  deps.logger.warn(
    { team, register: registerKey, err: error },
    "methods watch: the service could not be read",
  );
  const told = await changeWatch(deps.board, registerKey, (state) => {
    if (!state.settings) return { result: undefined };
    const decided = decideReadFailure(state, now);
    const result = decided.tell
      ? { channel: state.settings.channel, before: state.failingToldAt }
      : undefined;
    return { next: decided.next, result };
  });
  if (!told) return;
  const [lang, label] = await Promise.all([deps.languageOf(team), deps.labelOf(registerKey)]);
  const ts = await postIn(deps, team, told.channel, methodFailingNote(label, lang));
  deps.logger.info(
    { team, register: registerKey, sent: ts !== undefined },
    "methods watch: failing reads told",
  );
  if (ts !== undefined) return;
  // Not said: as if it had not been, so the next check says it.
  await changeWatch(deps.board, registerKey, (state) => {
    if (state.failingToldAt !== now) return { result: undefined };
    const { failingToldAt: _, ...rest } = state;
    return {
      next: told.before === undefined ? rest : { ...rest, failingToldAt: told.before },
      result: undefined,
    };
  });
}
