import type { AnyMiddlewareArgs, Middleware } from "@slack/bolt";
import type { Logger } from "../logger.js";
import type { AtomicKeys } from "../store/atomic.js";

/** Slack retries an event up to three times within about an hour; an id is remembered that long. */
export const EVENT_ID_TTL_MS = 60 * 60 * 1000;

/**
 * Global middleware: an Events API callback is handled once per `event_id`, whichever replica a
 * retry (X-Slack-Retry-Num) reaches: the first to claim the id in the store handles it. Bolt has
 * already acknowledged events, so a duplicate is simply dropped. When the store cannot say, the
 * event is handled (handling twice beats losing an uninstall).
 */
export function oncePerEvent(seen: AtomicKeys, logger: Logger): Middleware<AnyMiddlewareArgs> {
  return async ({ body, context, next }) => {
    const callback = body as { type?: unknown; event_id?: unknown; team_id?: unknown };
    if (callback.type !== "event_callback" || typeof callback.event_id !== "string") return next();
    let first = true;
    try {
      first = await seen.claim(callback.event_id, EVENT_ID_TTL_MS);
    } catch (error) {
      logger.warn(
        { eventId: callback.event_id, err: error },
        "could not record an event id; handling it anyway",
      );
    }
    if (first) return next();
    logger.info(
      { eventId: callback.event_id, team: callback.team_id, retryNum: context.retryNum },
      "event already handled; retry ignored",
    );
  };
}
