import { randomBytes } from "node:crypto";
import type { InstallURLOptions } from "@slack/bolt";
import { z } from "zod";
import type { AtomicKeys } from "./atomic.js";

/** How long an install link's state stays usable (Bolt's own default). */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

const installOptionsSchema = z.looseObject({ scopes: z.union([z.string(), z.array(z.string())]) });

/** A state the redirect cannot use: unknown, expired, or already used once. */
export class OAuthStateError extends Error {
  override readonly name = "InvalidStateError";
  readonly code = "slack_oauth_invalid_state";
}

/**
 * Bolt's OAuth state kept in the store: a random id handed to Slack, the install options behind it,
 * and a consume that only one redirect wins (the engine's atomic take), on every replica. A second
 * redirect with the same state is refused, as is one after OAUTH_STATE_TTL_MS.
 */
export class StoredStateStore {
  constructor(private readonly keys: AtomicKeys) {}

  async generateStateParam(installOptions: InstallURLOptions, _now: Date): Promise<string> {
    const state = randomBytes(24).toString("base64url");
    await this.keys.put(state, JSON.stringify(installOptions), OAUTH_STATE_TTL_MS);
    return state;
  }

  async verifyStateParam(_now: Date, state: string): Promise<InstallURLOptions> {
    if (!/^[\w-]{16,64}$/.test(state)) throw new OAuthStateError("the OAuth state is not one Kassa issued");
    const stored = await this.keys.take(state);
    if (stored === undefined)
      throw new OAuthStateError("the OAuth state is unknown, expired or already used");
    const parsed = installOptionsSchema.safeParse(JSON.parse(stored));
    if (!parsed.success) throw new OAuthStateError("the stored OAuth state is not in the expected form");
    return parsed.data as InstallURLOptions;
  }
}
