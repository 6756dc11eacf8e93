import type { ListenerDeps } from "../deps.js";
import { publishHome } from "../manage.js";
import type { EventArgs } from "../router.js";

export const homeOpened =
  (
    deps: Pick<
      ListenerDeps,
      "adminUserIds" | "stores" | "logger" | "replyVisibility" | "defaultApiVersion" | "callbacks"
    >,
  ) =>
  async ({ event, body, client, context }: EventArgs<"app_home_opened">): Promise<void> => {
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
  };
