import { randomBytes } from "node:crypto";
import type Keyv from "keyv";
import { z } from "zod";

// Each workspace's callback address ends in a random key, not its team id: the address is given to
// the payment service and to the merchant's own servers, and must not say whose it is nor be guessed.
// Two entries per workspace: key -> team (to route a callback) and team -> key (to show and rotate).

const KEY_BYTES = 24;
const KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;
const teamSchema = z.string().min(1);
const keySchema = z.string().regex(KEY_PATTERN);

export class CallbackKeys {
  constructor(private readonly keyv: Keyv) {}

  /** The workspace of a callback key; undefined for a key that is not (or no longer) anyone's. */
  async teamOf(key: string): Promise<string | undefined> {
    if (!KEY_PATTERN.test(key)) return undefined;
    const team = teamSchema.safeParse(await this.keyv.get(`key:${key}`));
    return team.success ? team.data : undefined;
  }

  /** The workspace's key, made on first use. */
  async keyOf(teamId: string): Promise<string> {
    const existing = keySchema.safeParse(await this.keyv.get(`team:${teamId}`));
    if (existing.success) return existing.data;
    return this.rotate(teamId);
  }

  /** A new key for the workspace; the old address stops working at once. */
  async rotate(teamId: string): Promise<string> {
    const previous = keySchema.safeParse(await this.keyv.get(`team:${teamId}`));
    const key = randomBytes(KEY_BYTES).toString("base64url");
    await this.keyv.set(`key:${key}`, teamId);
    await this.keyv.set(`team:${teamId}`, key);
    if (previous.success) await this.keyv.delete(`key:${previous.data}`);
    return key;
  }

  /** Forgets the workspace's address (disconnect, uninstall). */
  async remove(teamId: string): Promise<void> {
    const previous = keySchema.safeParse(await this.keyv.get(`team:${teamId}`));
    if (previous.success) await this.keyv.delete(`key:${previous.data}`);
    await this.keyv.delete(`team:${teamId}`);
  }
}
