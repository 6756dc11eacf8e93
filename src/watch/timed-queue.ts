import { withStoreDeadline } from "../store/deadline.js";
import type { WatchQueue } from "./model.js";

/**
 * The queue with STORE_TIMEOUT_MS on every step, for the people waiting on it (a command, a button)
 * and for the watcher's loop alike: a hung Redis or PostgreSQL fails the step with a StoreCallError
 * instead of holding a command or a whole pass (and every other card of the process) forever.
 *
 * `tell` is left without one on purpose: its compare-and-set may still land after a deadline, and a
 * watcher that took it for a failure would never tell that change (the next read would find it told
 * already). Its wait is bounded by the engine's own connection handling instead.
 */
export function timedQueue(queue: WatchQueue, timeoutMs: number): WatchQueue {
  const timed = <T>(work: Promise<T>, operation: string) =>
    withStoreDeadline(work, timeoutMs, `watch.${operation}`);
  return {
    addCard: (seed, card, limits) => timed(queue.addCard(seed, card, limits), "add"),
    room: (team, invoiceId, maxPerWorkspace, asker, now) =>
      timed(queue.room(team, invoiceId, maxPerWorkspace, asker, now), "room"),
    removeCard: (team, invoiceId, id) => timed(queue.removeCard(team, invoiceId, id), "stop"),
    remove: (team, invoiceId, lease) => timed(queue.remove(team, invoiceId, lease), "remove"),
    removeTeam: (team) => timed(queue.removeTeam(team), "forgetTeam"),
    count: (team) => timed(queue.count(team), "count"),
    claimDue: (now, max, leaseMs) => timed(queue.claimDue(now, max, leaseMs), "claim"),
    renew: (team, invoiceId, lease, until) => timed(queue.renew(team, invoiceId, lease, until), "renew"),
    dueBy: (team, invoiceId, now) => timed(queue.dueBy(team, invoiceId, now), "checkSoon"),
    setCard: (team, invoiceId, card, lease) => timed(queue.setCard(team, invoiceId, card, lease), "setCard"),
    reschedule: (team, invoiceId, dueAt, patch, lease) =>
      timed(queue.reschedule(team, invoiceId, dueAt, patch, lease), "reschedule"),
    tell: (team, invoiceId, from, to, lease) => queue.tell(team, invoiceId, from, to, lease),
    takeRead: (register, perSecond, now, maxWaitMs) =>
      timed(queue.takeRead(register, perSecond, now, maxWaitMs), "takeRead"),
    close: () => queue.close(),
  };
}
