import { type ClaimBoard, openClaimBoard } from "./claims/index.js";
import type { KeyvStore } from "./connection.js";
import { DEFAULT_PREFIX } from "./schema/names.js";

/**
 * Work one replica at a time does (an export of a workspace, the refresh of a register's kept
 * history): a lease has an owner, an expiry and renewal, each step one atomic statement of the
 * engine's claim board (src/store/claims/), never a Keyv read followed by a write.
 * `info` says who holds it, for the next asker ("under way, asked by …"). A holder whose renewal
 * fails has lost it and must write nothing more.
 */
export type Leases = {
  acquire(
    key: string,
    owner: string,
    info: string,
    ttlMs: number,
  ): Promise<{ held: true } | { held: false; info: string | undefined }>;
  /** Extends the lease while `owner` still holds it; false once it does not. */
  renew(key: string, owner: string, ttlMs: number): Promise<boolean>;
  release(key: string, owner: string): Promise<void>;
};

/** The board's family of leases: items that live while held. */
const FAMILY = "lease";

/** The leases of this store's engine; `prefix` keeps a test run's keys (or tables) apart. */
export async function leasesFor(store: Pick<KeyvStore, "native">, prefix = DEFAULT_PREFIX): Promise<Leases> {
  return leasesOn(await openClaimBoard(store, prefix));
}

/** Leases as named items of the claim board, claimed with the holder's own token. */
function leasesOn(board: ClaimBoard): Leases {
  return {
    acquire: (key, owner, info, ttlMs) => board.claimKey(FAMILY, key, owner, Date.now(), ttlMs, info),
    renew: (key, owner, ttlMs) => board.renew(FAMILY, key, owner, Date.now(), ttlMs),
    async release(key, owner) {
      await board.release(FAMILY, key, owner, "forget");
    },
  };
}
