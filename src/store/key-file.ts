import { randomBytes } from "node:crypto";
import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { decodeKey } from "../config/index.js";

export type ResolvedKey = { key: Buffer; source: "env" | "file-existing" | "file-created"; path?: string };

/**
 * CREDENTIALS_KEY when set; otherwise, for SQLite only, a key file beside the database, created once
 * with mode 0600. The caller logs a warning when the file is in use (it sits next to the data it protects).
 */
export function resolveCredentialsKey(configured: Buffer | undefined, databasePath: string): ResolvedKey {
  if (configured) return { key: configured, source: "env" };
  const path = `${databasePath}.key`;
  let text: string | undefined;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  if (text !== undefined) {
    const key = decodeKey(text);
    if (!key) throw new Error(`key file ${path} does not hold a 32-byte key (hex or base64)`);
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    return { key, source: "file-existing", path };
  }
  const key = randomBytes(32);
  // "wx": never overwrite a key another process has just written.
  try {
    writeFileSync(path, `${key.toString("base64")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST")
      return resolveCredentialsKey(undefined, databasePath);
    throw error;
  }
  return { key, source: "file-created", path };
}
