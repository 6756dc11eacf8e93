import type Keyv from "keyv";
import { z } from "zod";
import type { ApiVersion, PaymentsAccount } from "../payments/model.js";
import { type SecretBox, sealedSchema } from "./crypto.js";
import { Memo } from "./memo.js";

const MISSING = Symbol("missing");

/** What the store keeps per workspace. The secret is sealed; everything else is plain. */
const storedConnectionSchema = z.object({
  v: z.literal(1),
  login: z.string().min(1),
  secret: sealedSchema,
  /** "Secret 2", the salt of the payment service's callback signatures; optional. */
  salt: sealedSchema.nullish(),
  apiVersion: z.enum(["v2", "v3"]).nullish(),
  connectedBy: z.string().nullish(),
  connectedAt: z.iso.datetime(),
});
type StoredConnection = z.infer<typeof storedConnectionSchema>;

/** A workspace's connection without its secret: safe to list and show. */
export type ConnectionInfo = {
  teamId: string;
  login: string;
  apiVersion: ApiVersion | null;
  connectedBy: string | null;
  connectedAt: string;
  /** A Secret 2 is stored: callbacks can be checked (instant notifications). */
  hasSalt: boolean;
  /** The id of another key the secret was sealed with (this key cannot open it); null when ours. */
  otherKey: string | null;
};

/** `salt`: Secret 2, opened; undefined when none is stored. */
export type Connection = ConnectionInfo & { account: PaymentsAccount; salt: string | undefined };

/** Sealed with its own context, so the secret cannot be passed off as the salt or the other way round. */
const saltContext = (teamId: string) => `${teamId}:salt`;

/** A stored value that cannot be read: corrupt JSON shape, tampered ciphertext, or another key. */
export class StoreValueError extends Error {
  override readonly name: string = "StoreValueError";
}

/**
 * Credentials sealed with another CREDENTIALS_KEY than the one Kassa runs with (mostly a key made
 * fresh in another shell, or a replica started with another key). Nothing is lost: the old key opens
 * them again, or the workspace reconnects. Only key ids here, never a key.
 */
export class CredentialsKeyError extends StoreValueError {
  override readonly name = "CredentialsKeyError";
  constructor(
    readonly teamId: string,
    readonly sealedWith: string,
    readonly configured: string,
  ) {
    super(
      `credentials of ${teamId} were sealed with key ${sealedWith}, but Kassa runs with key ${configured}`,
    );
  }
}

/** Cash register credentials per Slack workspace (team id; enterprise id for org-wide installs). */
export class CredentialsStore {
  private readonly memo: Memo<Connection | undefined>;

  /** `memoMs`: how long a read is reused in memory (0: every read goes to the store). */
  constructor(
    private readonly keyv: Keyv,
    private readonly box: SecretBox,
    memoMs = 0,
  ) {
    this.memo = new Memo(memoMs);
  }

  async get(teamId: string): Promise<Connection | undefined> {
    const remembered = this.memo.get(teamId, MISSING);
    if (remembered !== MISSING) return remembered;
    const connection = await this.read(teamId);
    this.memo.set(teamId, connection);
    return connection;
  }

  private async read(teamId: string): Promise<Connection | undefined> {
    const raw: unknown = await this.keyv.get(teamId);
    if (raw === undefined) return undefined;
    const stored = this.parse(teamId, raw);
    const otherKey = [stored.secret, stored.salt].find((sealed) => sealed && sealed.kid !== this.box.keyId);
    if (otherKey) throw new CredentialsKeyError(teamId, otherKey.kid, this.box.keyId);
    let secret: string;
    let salt: string | undefined;
    try {
      secret = this.box.open(stored.secret, teamId);
      salt = stored.salt ? this.box.open(stored.salt, saltContext(teamId)) : undefined;
    } catch (error) {
      throw new StoreValueError(`credentials of ${teamId} cannot be decrypted: ${(error as Error).message}`);
    }
    return {
      ...info(teamId, stored, this.box.keyId),
      account: { login: stored.login, secret, apiVersion: stored.apiVersion ?? undefined },
      salt,
    };
  }

  async set(
    teamId: string,
    values: {
      login: string;
      secret: string;
      apiVersion?: ApiVersion | undefined;
      connectedBy?: string | undefined;
      /** Secret 2: a value replaces it, null removes it, undefined keeps the stored one. */
      salt?: string | null | undefined;
    },
  ): Promise<ConnectionInfo> {
    const kept = values.salt === undefined ? await this.storedSalt(teamId) : undefined;
    const stored: StoredConnection = {
      v: 1,
      login: values.login,
      secret: this.box.seal(values.secret, teamId),
      salt: values.salt ? this.box.seal(values.salt, saltContext(teamId)) : (kept ?? null),
      apiVersion: values.apiVersion ?? null,
      connectedBy: values.connectedBy ?? null,
      connectedAt: new Date().toISOString(),
    };
    await this.keyv.set(teamId, stored);
    this.memo.delete(teamId);
    return info(teamId, stored, this.box.keyId);
  }

  /** The sealed salt as stored (not opened), to keep it when the rest is replaced. */
  private async storedSalt(teamId: string): Promise<StoredConnection["salt"]> {
    const raw: unknown = await this.keyv.get(teamId);
    if (raw === undefined) return undefined;
    const parsed = storedConnectionSchema.safeParse(raw);
    // A salt sealed with another key could never be opened: reconnecting drops it.
    return parsed.success && parsed.data.salt?.kid === this.box.keyId ? parsed.data.salt : undefined;
  }

  async remove(teamId: string): Promise<boolean> {
    this.memo.delete(teamId);
    return this.keyv.delete(teamId);
  }

  /** Every connected workspace, secrets left out; unreadable entries are reported, not hidden. */
  async list(): Promise<Array<ConnectionInfo | { teamId: string; problem: string }>> {
    const iterator = this.keyv.iterator;
    if (!iterator) throw new Error("this store cannot list its keys");
    // Keyed by team: Redis' SCAN may return a key twice while its table grows.
    const result = new Map<string, ConnectionInfo | { teamId: string; problem: string }>();
    for await (const [teamId, raw] of iterator(this.keyv.namespace)) {
      const key = String(teamId);
      try {
        result.set(key, info(key, this.parse(key, raw), this.box.keyId));
      } catch (error) {
        result.set(key, { teamId: key, problem: (error as Error).message });
      }
    }
    return [...result.values()].sort((a, b) => a.teamId.localeCompare(b.teamId));
  }

  /**
   * What is stored for a workspace without opening its secret: still says who connected it when the
   * secret cannot be opened (another key), so /invoice status can say what is wrong.
   */
  async info(teamId: string): Promise<ConnectionInfo | undefined> {
    const raw: unknown = await this.keyv.get(teamId);
    return raw === undefined ? undefined : info(teamId, this.parse(teamId, raw), this.box.keyId);
  }

  /** How many workspaces' credentials this key cannot open, and the key ids they were sealed with. */
  async sealedWithOtherKeys(): Promise<{ count: number; keyIds: string[] }> {
    const rows = await this.list();
    const other = rows.filter((row): row is ConnectionInfo => "login" in row && row.otherKey !== null);
    return { count: other.length, keyIds: [...new Set(other.map((row) => row.otherKey as string))] };
  }

  /** The id of the key Kassa runs with (a public fingerprint, never the key). */
  get keyId(): string {
    return this.box.keyId;
  }

  private parse(teamId: string, raw: unknown): StoredConnection {
    const parsed = storedConnectionSchema.safeParse(raw);
    if (!parsed.success) throw new StoreValueError(`credentials of ${teamId} are not in the expected form`);
    return parsed.data;
  }
}

function info(teamId: string, stored: StoredConnection, keyId: string): ConnectionInfo {
  const other = [stored.secret, stored.salt].find((sealed) => sealed && sealed.kid !== keyId);
  return {
    teamId,
    login: stored.login,
    apiVersion: stored.apiVersion ?? null,
    connectedBy: stored.connectedBy ?? null,
    connectedAt: stored.connectedAt,
    hasSalt: Boolean(stored.salt),
    otherKey: other ? other.kid : null,
  };
}
