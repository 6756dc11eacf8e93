import type { MethodSwitchState } from "../paymethods/switch-state.js";
import { type Assessment, assess, HOUR_MS } from "./assess.js";
import { type EpisodeSay, stepEpisode } from "./episodes.js";
import type { MethodFigures } from "./figures.js";
import { compareSeen, type MethodNow, type OutsideChange } from "./outside.js";
import { type Episode, MAX_METHODS_KEPT, type MethodWatchState, type WatchSettings } from "./state.js";

// What one check of a register means (pure): each method's episode stepped, the methods seen compared
// with the list now, expired snoozes dropped, the failing mark cleared; and what to post. A read that
// failed instead: marked failing from the first, said after an hour of it, and then at most once an hour.

/** A method listed now: its state for the outside compare, and whether payers can use it. */
export type ListedMethod = MethodNow & { enabled: boolean };

/** What to post after the decision is written: an alert, a line in an alert's thread, or news. */
export type WatchPost =
  | {
      kind: "alert";
      code: string;
      name: string;
      episode: Episode;
      figures: MethodFigures;
      assessment: Assessment;
    }
  | { kind: "closed"; code: string; name: string; how: Exclude<EpisodeSay, "alert">; episode: Episode }
  | { kind: "news"; change: OutsideChange; seenAt: number };

export type CheckInput = {
  methods: readonly ListedMethod[];
  figures: ReadonlyMap<string, MethodFigures>;
  records: ReadonlyMap<string, MethodSwitchState>;
  now: number;
  calmMs: number;
};

/** The register's watch after a check that read the service; `settings` must be set (the watch is on). */
export function decideCheck(
  current: MethodWatchState,
  settings: WatchSettings,
  input: CheckInput,
): { next: MethodWatchState; posts: WatchPost[] } {
  const { now } = input;
  const posts: WatchPost[] = [];
  const listed = new Map(input.methods.map((method) => [method.code, method]));
  const snoozed = Object.fromEntries(Object.entries(current.snoozed).filter(([, until]) => until > now));
  const episodes: MethodWatchState["episodes"] = {};
  const codes = [...new Set([...listed.keys(), ...Object.keys(current.episodes)])];
  for (const code of codes.slice(0, MAX_METHODS_KEPT)) {
    const method = listed.get(code);
    const figures = input.figures.get(code);
    const episode = current.episodes[code];
    const assessment = assess(figures, settings, now);
    const step = stepEpisode({
      episode,
      assessment,
      on: method?.enabled === true,
      snoozedUntil: snoozed[code],
      now,
      calmMs: input.calmMs,
    });
    if (step.next) episodes[code] = step.next;
    const name = method?.name ?? code;
    if (step.say === "alert" && step.next && figures)
      posts.push({ kind: "alert", code, name, episode: step.next, figures, assessment });
    else if ((step.say === "calm" || step.say === "off") && episode)
      posts.push({ kind: "closed", code, name, how: step.say, episode });
  }
  const compared = compareSeen(current.seen, input.methods, input.records, now);
  const seenAt = current.seen?.at ?? now;
  for (const change of compared.news) posts.push({ kind: "news", change, seenAt });
  const { failingSince: _, failingToldAt: __, ...rest } = current;
  return { next: { ...rest, seen: compared.seen, episodes, snoozed }, posts };
}

/**
 * A check whose read of the service failed at `now`: marked failing from the first failure; after an
 * hour of failures the channel is told, then at most once an hour while they last (`tell`).
 */
export function decideReadFailure(
  current: MethodWatchState,
  now: number,
): { next: MethodWatchState; tell: boolean } {
  const since = current.failingSince ?? now;
  const toldAt = current.failingToldAt;
  const tell = now - since >= HOUR_MS && (toldAt === undefined || now - toldAt >= HOUR_MS);
  return {
    next: { ...current, failingSince: since, ...(tell ? { failingToldAt: now } : {}) },
    tell,
  };
}
