import type { WorkspacePayments } from "../registers/workspace-payments.js";
import { CancelMarks } from "../store/cancels.js";
import type { KeyvStore } from "../store/connection.js";
import { type Leases, leasesFor } from "../store/leases.js";
import type { Logger } from "../util/logger.js";
import { KeptHistory } from "./kept.js";

/**
 * What long reads need, on the store Kassa runs with: the kept history of each register (read in
 * the background lane of its budget), the engine's leases, and the shared Cancel marks.
 */
export async function openLongReads(
  store: Pick<KeyvStore, "namespace" | "native">,
  payments: WorkspacePayments,
  zone: string,
  logger: Logger,
): Promise<{ history: KeptHistory; leases: Leases; cancels: CancelMarks }> {
  const leases = await leasesFor(store);
  const history = new KeptHistory({
    keyv: store.namespace("history", { durability: "process" }),
    leases,
    page: (team, page, items) => payments.history(team, page, items, "background"),
    register: (team) => payments.register(team),
    zone,
    logger,
  });
  return { history, leases, cancels: new CancelMarks(store.namespace("cancels")) };
}
