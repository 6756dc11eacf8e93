import type { MethodFigures } from "./figures.js";
import type { FailureRule, SilenceRule } from "./state.js";

// How one method stands against the watch's rules (pure): for each kind of trouble, over the rule
// ("trouble"), below half of it ("calm"), or in between. A method never paid in the 28 days has no
// usual: it is always calm, whatever its figures (the watch says nothing rather than guess).

export const HOUR_MS = 3_600_000;

export type Level = "trouble" | "between" | "calm";

export type Assessment = {
  failure: Level;
  silence: Level;
  /** How long without a payment the silence rule allows now (ms); undefined: no silence rule applies. */
  silenceLimitMs: number | undefined;
};

export const ALL_CALM: Assessment = { failure: "calm", silence: "calm", silenceLimitMs: undefined };

/** The failure rule on the window's figures: enough invoices and enough of them failed. */
export function failureLevel(figures: MethodFigures, rule: FailureRule): Level {
  const { invoices, failures } = figures.window;
  if (invoices >= rule.minInvoices && failures * 100 >= rule.sharePercent * invoices) return "trouble";
  // Below half the share (nothing in the window is nothing failing).
  if (failures * 200 < rule.sharePercent * invoices || invoices === 0) return "calm";
  return "between";
}

/** How long without a payment the rule allows for this method now; undefined: none (off, no usual). */
export function silenceLimit(figures: MethodFigures, rule: SilenceRule): number | undefined {
  if (rule.mode === "off") return undefined;
  if (rule.mode === "fixed") return rule.hours * HOUR_MS;
  if (figures.usualQuietMs === undefined) return undefined;
  return Math.max(rule.factor * figures.usualQuietMs, rule.floorHours * HOUR_MS);
}

export function assess(
  figures: MethodFigures | undefined,
  rules: { failure: FailureRule; silence: SilenceRule },
  now: number,
): Assessment {
  if (!figures || figures.lastPaidAt === undefined) return ALL_CALM;
  const limit = silenceLimit(figures, rules.silence);
  const quiet = now - figures.lastPaidAt;
  const silence: Level =
    limit === undefined ? "calm" : quiet > limit ? "trouble" : quiet * 2 < limit ? "calm" : "between";
  return { failure: failureLevel(figures, rules.failure), silence, silenceLimitMs: limit };
}
