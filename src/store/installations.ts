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

/** A workspace of an Enterprise Grid org where Kassa is installed org-wide, as first seen. */
const orgWorkspaceSchema = z.object({ enterpriseId: z.string().min(1), seenAt: z.iso.datetime() });

/** Org-wide (Enterprise Grid) installs are keyed by enterprise id, all others by team id. */
export function installationKey(query: Query): string | undefined {
  if (query.isEnterpriseInstall && query.enterpriseId) return `enterprise:${query.enterpriseId}`;
  return query.teamId ? `team:${query.teamId}` : undefined;
}

export class KeyvInstallationStore implements InstallationStore {
  /** Workspaces this process has already written down (one write per workspace, not per request). */
  private readonly noted = new Set<string>();

  /**
   * @param orgWorkspaces which org each workspace of an org-wide install belongs to (team id ->
   *   enterprise id): requests carry both, but the watcher, the feed and an org's uninstall know a
   *   workspace (or the org) only.
   */
  constructor(
    private readonly keyv: Keyv,
    private readonly box: SecretBox,
    private readonly orgWorkspaces: Keyv,
  ) {}

  /** Notes that `teamId` belongs to the org-wide install of `enterpriseId` (once per process). */
  async noteOrgWorkspace(teamId: string, enterpriseId: string): Promise<void> {
    const key = `${teamId}:${enterpriseId}`;
    if (this.noted.has(key)) return;
    if (this.noted.size >= 10_000) this.noted.clear();
    this.noted.add(key);
    try {
      const raw: unknown = await this.orgWorkspaces.get(teamId);
      if (orgWorkspaceSchema.safeParse(raw).data?.enterpriseId === enterpriseId) return;
      await this.orgWorkspaces.set(teamId, { enterpriseId, seenAt: new Date().toISOString() });
    } catch (error) {
      this.noted.delete(key);
      throw error;
    }
  }

  /** The org a workspace was seen in, when Kassa is installed org-wide there. */
  async orgOf(teamId: string): Promise<string | undefined> {
    return orgWorkspaceSchema.safeParse(await this.orgWorkspaces.get(teamId)).data?.enterpriseId;
  }

  /** Every workspace seen in the org-wide install of `enterpriseId` (an org's uninstall forgets them). */
  async workspacesOf(enterpriseId: string): Promise<string[]> {
    const iterator = this.orgWorkspaces.iterator;
    if (!iterator) throw new Error("this store cannot list its keys");
    const found: string[] = [];
    for await (const [teamId, raw] of iterator(this.orgWorkspaces.namespace)) {
      if (orgWorkspaceSchema.safeParse(raw).data?.enterpriseId === enterpriseId) found.push(String(teamId));
    }
    return found;
  }

  /** Forgets that a workspace belongs to an org (it left, or the org uninstalled Kassa). */
  async forgetOrgWorkspace(teamId: string): Promise<void> {
    for (const key of this.noted) if (key.startsWith(`${teamId}:`)) this.noted.delete(key);
    await this.orgWorkspaces.delete(teamId);
  }

  /**
   * The installation that acts for a workspace, knowing only its team id (the watcher, the feed):
   * its own install, else its org's org-wide one. `orgWide`: Web API calls must then name the team.
   */
  async forWorkspace(
    teamId: string,
  ): Promise<{ installation: Installation<"v1" | "v2", boolean>; orgWide: boolean } | undefined> {
    const own = await this.find({ teamId, isEnterpriseInstall: false });
    if (own) return { installation: own, orgWide: false };
    const enterpriseId = await this.orgOf(teamId);
    if (!enterpriseId) return undefined;
    const org = await this.find({ teamId, enterpriseId, isEnterpriseInstall: true });
    return org ? { installation: org, orgWide: true } : undefined;
  }

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
