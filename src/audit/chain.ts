import { createHash } from "node:crypto";
import { type AuditEntry, MAX_ENTRY_CHARS } from "./entry.js";

// The chain, engine-free: each entry's hash covers the hash before it and the entry's canonical
// form, so changing, dropping or reordering an entry breaks every link after it.

/** The previous hash of a chain's first entry: 64 zeros (no entry's SHA-256 is that). */
export const GENESIS_HASH = "0".repeat(64);

/**
 * An entry's canonical form: JSON with every object's keys sorted (by UTF-16 code units), no
 * spaces, strings escaped as JSON.stringify does, absent (undefined) members left out: RFC 8785
 * (JCS) for the values an entry holds, so any JCS library gives the same text and hash.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(",")}}`;
  }
  if (typeof value === "number" && !Number.isFinite(value)) throw new Error("not JSON: a non-finite number");
  if (value === null || ["string", "number", "boolean"].includes(typeof value)) return JSON.stringify(value);
  throw new Error(`not JSON: ${typeof value}`);
}

/** SHA-256, in hex, of the previous hash (hex text) followed by the entry's canonical form (UTF-8). */
export function chainHash(prevHash: string, canonical: string): string {
  return createHash("sha256").update(prevHash, "utf8").update(canonical, "utf8").digest("hex");
}

/** The newest entry of a team's chain: where the next one chains on. */
export type AuditHead = { seq: number; hash: string; at: number };

/**
 * One entry as every engine stores it: the team's sequence number, the time in ms (an index for
 * ranges), actor and action (indexes for filters), the canonical text itself (what the hash
 * covers, kept byte for byte), the previous hash and its own.
 */
export type AuditLink = {
  team: string;
  seq: number;
  at: number;
  actor: string;
  action: string;
  entry: string;
  prevHash: string;
  hash: string;
};

/** The entry as the link after `head` (the first of the chain when there is none). */
export function linkAfter(head: AuditHead | undefined, entry: AuditEntry): AuditLink {
  const canonical = canonicalJson(entry);
  if (canonical.length > MAX_ENTRY_CHARS)
    throw new Error(
      `an audit entry's canonical form is ${canonical.length} characters, over ${MAX_ENTRY_CHARS}`,
    );
  const prevHash = head?.hash ?? GENESIS_HASH;
  return {
    team: entry.team,
    seq: (head?.seq ?? 0) + 1,
    at: Date.parse(entry.time),
    actor: entry.actor,
    action: entry.action,
    entry: canonical,
    prevHash,
    hash: chainHash(prevHash, canonical),
  };
}

/** The head a link makes. */
export const headOf = (link: AuditLink): AuditHead => ({ seq: link.seq, hash: link.hash, at: link.at });
