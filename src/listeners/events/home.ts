import type { App } from "@slack/bolt";
import type { ListenerDeps } from "../index.js";
import { publishHome } from "../manage.js";

export function registerHomeEvents(app: App, deps: ListenerDeps): void {
  app.event("app_home_opened", async ({ event, body, client, context }) => {
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
