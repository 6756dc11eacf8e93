import type { Assessment } from "./assess.js";
import type { Episode } from "./state.js";

// One method's episode after a check (pure, tested as a table). An episode opens at the first check
// that finds the method failing or silent, and its alert is owed until posted (a post that failed is
// tried again while the trouble lasts). While it lasts nothing more is said, whatever the figures do.
// It ends once the trouble it was opened for has stayed below half the threshold for METHOD_CALM_MS
// (one line in the alert's thread), or at once when the method is switched off (a line too). A snoozed
// method opens no episode until its snooze ends.

export type EpisodeSay = "alert" | "calm" | "off";

export type EpisodeStep = { next: Episode | undefined; say?: EpisodeSay };

export type EpisodeInput = {
  episode: Episode | undefined;
  assessment: Assessment;
  /** The method is listed and on for payers. */
  on: boolean;
  /** Until when its alerts are snoozed (ms), if they are. */
  snoozedUntil: number | undefined;
  now: number;
  calmMs: number;
};

/** The trouble a new episode is about: failures first (the sharper fact), then silence. */
function troubleKind(assessment: Assessment): Episode["kind"] | undefined {
  if (assessment.failure === "trouble") return "failure";
  if (assessment.silence === "trouble") return "silence";
  return undefined;
}

export function stepEpisode(input: EpisodeInput): EpisodeStep {
  const { episode, assessment, on, now } = input;
  if (input.snoozedUntil !== undefined && input.snoozedUntil > now) return { next: undefined };
  if (!on) {
    // Switched off (here or elsewhere): nothing more to watch; a posted alert is closed in its thread.
    if (episode?.posted) return { next: undefined, say: "off" };
    return { next: undefined };
  }
  const trouble = troubleKind(assessment);
  if (!episode) return trouble ? { next: { kind: trouble, since: now }, say: "alert" } : { next: undefined };
  if (!episode.posted) {
    // The alert is still owed: said while there is trouble, dropped once there is none.
    if (!trouble) return { next: undefined };
    const { calmSince: _, ...owed } = episode;
    return { next: { ...owed, kind: trouble }, say: "alert" };
  }
  const other = episode.kind === "failure" ? assessment.silence : assessment.failure;
  const calm = assessment[episode.kind] === "calm" && other !== "trouble";
  if (!calm) {
    const { calmSince: _, ...open } = episode;
    return { next: open };
  }
  const calmSince = episode.calmSince ?? now;
  if (now - calmSince >= input.calmMs) return { next: undefined, say: "calm" };
  return { next: { ...episode, calmSince } };
}
