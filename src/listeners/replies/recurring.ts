import type { webApi } from "@slack/bolt";
import { scheduleListMessage } from "../../blocks/schedules.js";
import type { Lang } from "../../i18n/lang.js";
import type { Schedule } from "../../link-schedules/index.js";
import type { Produced } from "../contexts/outcome.js";
import type { ListenerDeps } from "../deps.js";
import { checkManager, type ManagerDeps } from "../workspace/permissions.js";

// `/invoice recurring` (RU `повторяющиеся`): the register's repeating invoices, each with Pause or
// Resume and Delete for its owner and the workspace's admins. Its buttons re-render it the same way.

export type RecurringDeps = ManagerDeps & Pick<ListenerDeps, "schedules">;

/** Who reads, where: the register's key and, where it is not main, its name (the buttons carry it). */
export type RecurringReader = {
  teamId: string;
  userId: string;
  enterpriseId?: string | undefined;
  registerKey: string;
  register: string | undefined;
};

/** The list as `reader` sees it: buttons on their own schedules, or on all of them for an admin. */
export async function recurringList(
  deps: RecurringDeps,
  client: webApi.WebClient,
  reader: RecurringReader,
  lang: Lang,
): Promise<{ reply: ReturnType<typeof scheduleListMessage>; count: number }> {
  const schedules = await deps.schedules.list(reader.registerKey);
  const othersOwn = schedules.some((schedule) => schedule.owner !== reader.userId);
  const admin = othersOwn && (await checkManager(deps, client, reader)).allowed;
  const mayChange = (schedule: Schedule) => admin || schedule.owner === reader.userId;
  const reply = scheduleListMessage({
    schedules,
    teamId: reader.teamId,
    register: reader.register,
    lang,
    mayChange,
  });
  return { reply, count: schedules.length };
}

export async function recurringCommand(
  deps: RecurringDeps,
  client: webApi.WebClient,
  asker: Omit<RecurringReader, "registerKey" | "register"> & { register: { key: string; name: string } },
  lang: Lang,
): Promise<Produced> {
  const { register } = asker;
  const reader = {
    ...asker,
    registerKey: register.key,
    register: register.key === asker.teamId ? undefined : register.name,
  };
  const { reply } = await recurringList(deps, client, reader, lang);
  return { reply, log: { outcome: "ok" } };
}
