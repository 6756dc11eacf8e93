import { randomUUID } from "node:crypto";
import {
  type ClaimBoard,
  type ClaimedItem,
  type Enlisting,
  parseState,
  type Release,
  stateText,
} from "../../src/store/claims/board.js";

type Item = { dueAt: number; owner: string; leaseUntil: number; nudged: number; info: string };
type States = Map<string, Map<string, string>>;
const id = (family: string, key: string) => `${family}\u0000${key}`;

/**
 * The claim board in this process's memory, for the families' tests (no store
 * opens it): one process is every replica there is. Each step runs without an await, so it is atomic in this process.
 */
export function memoryClaimBoard(): ClaimBoard {
  const items = new Map<string, Item>();
  const states: States = new Map();
  const held = (item: Item | undefined, token: string) => item !== undefined && item.owner === token;

  return {
    async enlist(family, key, dueAt) {
      if (!items.has(id(family, key)))
        items.set(id(family, key), { dueAt, owner: "", leaseUntil: 0, nudged: 0, info: "" });
    },
    async claimDue(family, now, leaseMs, limit) {
      const prefix = `${family}\u0000`;
      const due = [...items.entries()]
        .filter(([name, item]) => name.startsWith(prefix) && item.dueAt <= now && item.leaseUntil <= now)
        .map(([name, item]) => ({ key: name.slice(prefix.length), item }))
        .sort((a, b) => a.item.dueAt - b.item.dueAt || (a.key < b.key ? -1 : 1))
        .slice(0, Math.max(0, limit));
      const base = randomUUID();
      return due.map(({ key, item }, index): ClaimedItem => {
        Object.assign(item, { owner: `${base}:${index}`, leaseUntil: now + leaseMs, nudged: 0 });
        return { key, token: item.owner };
      });
    },
    async claimKey(family, key, token, now, leaseMs, info = "") {
      const item = items.get(id(family, key));
      if (item && item.leaseUntil > now && item.owner !== token)
        return { held: false, info: item.info || undefined };
      const until = now + leaseMs;
      if (item) Object.assign(item, { owner: token, leaseUntil: until, info, nudged: 0 });
      else items.set(id(family, key), { dueAt: until, owner: token, leaseUntil: until, nudged: 0, info });
      return { held: true };
    },
    async renew(family, key, token, now, leaseMs) {
      const item = items.get(id(family, key));
      if (!item || !held(item, token) || item.leaseUntil <= now) return false;
      item.leaseUntil = now + leaseMs;
      return true;
    },
    async release(family, key, token, next: Release) {
      const item = items.get(id(family, key));
      if (!item || !held(item, token)) return false;
      if (next === "forget") {
        items.delete(id(family, key));
        states.delete(id(family, key));
        return true;
      }
      const dueAt = item.nudged > 0 ? Math.min(item.dueAt, next.dueAt) : next.dueAt;
      Object.assign(item, { owner: "", leaseUntil: 0, info: "", nudged: 0, dueAt });
      return true;
    },
    async nudge(family, key, now) {
      const item = items.get(id(family, key));
      if (!item) return;
      item.dueAt = Math.min(item.dueAt, now);
      item.nudged = item.leaseUntil > now ? now : 0;
    },
    async readState(family, key, field) {
      const text = states.get(id(family, key))?.get(field);
      return text === undefined ? undefined : parseState(text);
    },
    async writeState(family, key, field, token, state) {
      if (!held(items.get(id(family, key)), token)) return false;
      const fields = states.get(id(family, key)) ?? new Map<string, string>();
      fields.set(field, JSON.stringify(state));
      states.set(id(family, key), fields);
      return true;
    },
    async deleteState(family, key, field) {
      states.get(id(family, key))?.delete(field);
    },
    ...memorySwaps(items, states),
    async sweep(family, now) {
      let swept = 0;
      for (const [name, item] of items)
        if (name.startsWith(`${family}\u0000`) && item.owner !== "" && item.leaseUntil <= now) {
          items.delete(name);
          states.delete(name);
          swept += 1;
        }
      return swept;
    },
    async drop(family, key) {
      items.delete(id(family, key));
      states.delete(id(family, key));
    },
  };
}

/** Compare-and-set of a state, and enlisting an item with its state (each, with what it enlists, one step). */
function memorySwaps(items: Map<string, Item>, states: States): Pick<ClaimBoard, "swapState" | "enlistWith"> {
  const enlistWith = ({ family, key, dueAt, field, state }: Enlisting) => {
    if (!items.has(id(family, key)))
      items.set(id(family, key), { dueAt, owner: "", leaseUntil: 0, nudged: 0, info: "" });
    const fields = states.get(id(family, key)) ?? new Map<string, string>();
    fields.set(field, JSON.stringify(state));
    states.set(id(family, key), fields);
  };
  return {
    async swapState(family, key, field, expected, replacement, along) {
      const fields = states.get(id(family, key)) ?? new Map<string, string>();
      if (fields.get(field) !== stateText(expected)) return false;
      const text = stateText(replacement);
      if (text === undefined) fields.delete(field);
      else fields.set(field, text);
      states.set(id(family, key), fields);
      if (along) enlistWith(along);
      return true;
    },
    async enlistWith(item) {
      enlistWith(item);
    },
  };
}
