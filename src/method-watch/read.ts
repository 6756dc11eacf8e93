import { TEST_METHOD } from "../payments/model.js";
import { registerOfKey } from "../store/registers.js";
import type { ListedMethod } from "./decide.js";
import type { MethodWatchDeps } from "./deps.js";
import { FigureCounter, type MethodFigures } from "./figures.js";
import { withUsual } from "./usual.js";

// What one check reads of the service: the method list, fresh (which methods are on, their
// surcharges), and the register's kept history brought up to date: the last 28 days, or within the
// hour of such a whole read only what came since its window began (usual.ts).

export type ServiceRead = { methods: ListedMethod[]; figures: Map<string, MethodFigures> };

/** The methods and the figures; throws when either read fails (the check is then a failed read). */
export async function readService(
  deps: MethodWatchDeps,
  registerKey: string,
  now: number,
  windowMinutes: number,
): Promise<ServiceRead> {
  const list = await deps.payments.methods(registerKey, { fresh: true });
  const methods = list.methods
    .filter((method) => method.code !== TEST_METHOD)
    .map((method) => ({
      code: method.code,
      name: method.name,
      on: method.switchedOn,
      enabled: method.enabled,
      surcharge: method.extraCommissionPercent,
    }));
  const windowMs = windowMinutes * 60_000;
  const whole = deps.usual.recent(registerKey, now, windowMs);
  const counter = new FigureCounter(now, windowMs, deps.zone);
  // Within the hour of a whole read, only what came since its window began (see usual.ts).
  const since = whole ? whole.at - windowMs : counter.since;
  // The kept history's spans are in epoch seconds; every check brings it up to date (fresh 0).
  const read = await deps.history.read(
    registerKey,
    { since: Math.floor(since / 1000), until: Math.floor(now / 1000) + 1 },
    (entry) => counter.add(entry),
    { maxPages: deps.maxPages, freshMs: 0 },
  );
  if (read.partial || read.daysLeftOut.length > 0) {
    deps.logger.warn(
      {
        team: registerOfKey(registerKey).team,
        register: registerKey,
        partial: read.partial,
        daysLeftOut: read.daysLeftOut.slice(0, 10),
      },
      "methods watch: the history read is not whole; the usual figures come from what was read",
    );
  }
  const figures = counter.finish();
  if (whole) return { methods, figures: withUsual(figures, whole) };
  // A whole read that left days out is not built on: the next check reads the 28 days again.
  if (!read.partial && read.daysLeftOut.length === 0)
    deps.usual.remember(registerKey, { at: now, windowMs, figures });
  return { methods, figures };
}
