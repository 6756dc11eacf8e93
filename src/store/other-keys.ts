import type { Logger } from "../util/logger.js";
import type { CredentialsStore } from "./credentials.js";

/** How long start-up spends at most counting credentials sealed with another key. */
const OTHER_KEYS_CHECK_MS = 3000;

/**
 * One line at start when some workspaces' secrets were sealed with another CREDENTIALS_KEY (a key
 * made fresh in another shell, a replica with another key): their commands cannot work until the
 * key is restored or they reconnect. Bounded: a slow store does not hold start-up.
 */
export async function reportOtherKeys(credentials: CredentialsStore, logger: Logger): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), OTHER_KEYS_CHECK_MS);
  });
  try {
    const found = await Promise.race([credentials.sealedWithOtherKeys(), late]);
    if (found === "late" || found.count === 0) return;
    logger.warn(
      { workspaces: found.count, sealedWith: found.keyIds, keyId: credentials.keyId },
      `${found.count} workspace${found.count === 1 ? "'s" : "s'"} credentials were sealed with another CREDENTIALS_KEY than the one Kassa runs with: their commands fail until that key is restored or they reconnect (npm run cli -- credentials list shows which)`,
    );
  } catch (error) {
    logger.warn({ err: error }, "could not check which credentials this CREDENTIALS_KEY opens");
  } finally {
    clearTimeout(timer);
  }
}
