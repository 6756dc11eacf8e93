import type { ListenerDeps } from "../deps.js";
import { publishHome } from "../manage.js";
import type { ListenerRouter } from "../router.js";

export function registerHomeEvents(router: ListenerRouter, deps: ListenerDeps): void {
  router.event("app_home_opened", async ({ event, body, client, context }) => {
    if (event.tab !== "home") return;
    const teamId = context.teamId ?? body.team_id ?? "";
    const started = performance.now();
    try {
      await publishHome(deps, client, { userId: event.user, teamId, enterpriseId: context.enterpriseId });
      deps.logger.info(
        {
          event: "app_home_opened",
          team: teamId,
          user: event.user,
          outcome: "ok",
          latencyMs: Math.round(performance.now() - started),
        },
        "event handled",
      );
    } catch (error) {
      deps.logger.error(
        { event: "app_home_opened", team: teamId, user: event.user, outcome: "error", err: error },
        "event handled",
      );
    }
  });
}
