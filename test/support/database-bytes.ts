import { readFileSync } from "node:fs";

/**
 * Every byte of a SQLite store on disk, the write-ahead log included (recent writes sit there until
 * a checkpoint), for checking that a secret never lands in the file in plaintext.
 */
export function databaseBytes(storeUrlOrPath: string): Buffer {
  const file = storeUrlOrPath.replace(/^sqlite:\/\//, "");
  const parts: Buffer[] = [];
  for (const path of [file, `${file}-wal`]) {
    try {
      parts.push(readFileSync(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  return Buffer.concat(parts);
}
