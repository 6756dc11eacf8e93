import type { Installation, InstallationQuery, InstallationStore } from "@slack/bolt";
import type Keyv from "keyv";
import { z } from "zod";
import { StoreValueError } from "./credentials.js";
import { type SecretBox, sealedSchema } from "./crypto.js";

/**
 * Installations as Bolt's OAuth flow hands them over, in the Keyv store. The whole installation is
 * sealed (it holds the bot token, and refresh tokens when token rotation is on); only what we need
 * to find and describe it stays in clear.
 */
const storedInstallationSchema = z.object({
  v: z.literal(1),
  teamId: z.string().nullable(),
  enterpriseId: z.string().nullable(),
  isEnterpriseInstall: z.boolean(),
  installerUserId: z.string().nullable(),
  installedAt: z.iso.datetime(),
  sealed: sealedSchema,
});

/** What must be inside a sealed installation for Bolt to authorise with it. */
const installationSchema = z.looseObject({
  team: z.looseObject({ id: z.string() }).nullish(),
  enterprise: z.looseObject({ id: z.string() }).nullish(),
  isEnterpriseInstall: z.boolean().optional(),
  bot: z.looseObject({ token: z.string(), userId: z.string(), id: z.string().optional() }).optional(),
  user: z.looseObject({ id: z.string() }),
});

type Query = {
  teamId?: string | undefined;
  enterpriseId?: string | undefined;
  isEnterpriseInstall: boolean;
};

/** Org-wide (Enterprise Grid) installs are keyed by enterprise id, all others by team id. */
export function installationKey(query: Query): string | undefined {
  if (query.isEnterpriseInstall && query.enterpriseId) return `enterprise:${query.enterpriseId}`;
  return query.teamId ? `team:${query.teamId}` : undefined;
}

export class KeyvInstallationStore implements InstallationStore {
  constructor(
    private readonly keyv: Keyv,
    private readonly box: SecretBox,
  ) {}

  async storeInstallation(installation: Installation<"v1" | "v2", boolean>): Promise<void> {
    const query: Query = {
      teamId: installation.team?.id,
      enterpriseId: installation.enterprise?.id,
      isEnterpriseInstall: installation.isEnterpriseInstall ?? false,
    };
    const key = installationKey(query);
    if (!key) throw new Error("an installation names neither a team nor an enterprise");
    await this.keyv.set(key, {
      v: 1,
      teamId: query.teamId ?? null,
      enterpriseId: query.enterpriseId ?? null,
      isEnterpriseInstall: query.isEnterpriseInstall,
      installerUserId: installation.user.id,
      installedAt: new Date().toISOString(),
      sealed: this.box.seal(JSON.stringify(installation), key),
    });
  }

  async fetchInstallation(query: InstallationQuery<boolean>): Promise<Installation<"v1" | "v2", boolean>> {
    const found = await this.find(query);
    if (!found) throw new Error(`no installation for ${installationKey(query) ?? "this request"}`);
    return found;
  }

  async deleteInstallation(query: InstallationQuery<boolean>): Promise<void> {
    const key = installationKey(query);
    if (key) await this.keyv.delete(key);
  }

  /** The installation for a request, or undefined; an org-wide install covers its workspaces too. */
  async find(query: Query): Promise<Installation<"v1" | "v2", boolean> | undefined> {
    const keys = [installationKey(query)];
    if (query.enterpriseId) keys.push(installationKey({ ...query, isEnterpriseInstall: true }));
    for (const key of keys) {
      if (!key) continue;
      const raw: unknown = await this.keyv.get(key);
      if (raw === undefined) continue;
      return this.open(key, raw);
    }
    return undefined;
  }

  /** Who installed the app for this workspace (authorised to connect the cash register). */
  async installerUserId(query: Query): Promise<string | undefined> {
    return (await this.find(query))?.user.id;
  }

  private open(key: string, raw: unknown): Installation<"v1" | "v2", boolean> {
    const stored = storedInstallationSchema.safeParse(raw);
    if (!stored.success) throw new StoreValueError(`installation ${key} is not in the expected form`);
    let installation: unknown;
    try {
      installation = JSON.parse(this.box.open(stored.data.sealed, key));
    } catch (error) {
      throw new StoreValueError(`installation ${key} cannot be decrypted: ${(error as Error).message}`);
    }
    if (!installationSchema.safeParse(installation).success) {
      throw new StoreValueError(`installation ${key} does not hold a usable installation`);
    }
    return installation as Installation<"v1" | "v2", boolean>;
  }
}
