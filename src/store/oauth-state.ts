import { createHash } from "node:crypto";
import oauth, { type InstallURLOptions, type StateStore } from "@slack/oauth";

// @slack/oauth is CommonJS whose re-exports Node's ESM loader cannot name; take them off the default.
const { ClearStateStore, InvalidStateError } = oauth;

/** How long an install link's state is good for (Bolt's own default for the state cookie). */
export const OAUTH_STATE_SECONDS = 600;

/**
 * OAuth states that work once. Bolt's default store signs the state and checks its age, but a
 * signed state redeemed within its ten minutes could be redeemed again. Here the first redirect
 * claims it in the shared store (claimOnce: one atomic statement, so two replicas cannot both
 * accept it) and any later one is refused.
 */
export class SingleUseStateStore implements StateStore {
  private readonly signed: InstanceType<typeof ClearStateStore>;

  constructor(
    stateSecret: string,
    private readonly claimOnce: (key: string, ttlMs: number) => Promise<boolean>,
  ) {
    this.signed = new ClearStateStore(stateSecret, OAUTH_STATE_SECONDS);
  }

  generateStateParam(installOptions: InstallURLOptions, now: Date): Promise<string> {
    return this.signed.generateStateParam(installOptions, now);
  }

  async verifyStateParam(now: Date, state: string): Promise<InstallURLOptions> {
    // Forged or expired states are refused here, before anything is written.
    const installOptions = await this.signed.verifyStateParam(now, state);
    const key = `oauth-state:${createHash("sha256").update(state).digest("hex")}`;
    if (!(await this.claimOnce(key, OAUTH_STATE_SECONDS * 1000)))
      throw new InvalidStateError("The state parameter was already used");
    return installOptions;
  }
}
