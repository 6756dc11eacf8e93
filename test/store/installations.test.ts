import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Installation } from "@slack/bolt";
import Keyv from "keyv";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StoreValueError } from "../../src/store/credentials.js";
import { SecretBox } from "../../src/store/crypto.js";
import { installationKey, KeyvInstallationStore } from "../../src/store/installations.js";
import { type KeyvStore, openStore } from "../../src/store/keyv.js";
import { databaseBytes } from "../support/database-bytes.js";

const KEY = Buffer.alloc(32, 9);
const WORKSPACE_TOKEN = "xoxb-workspace-token-do-not-leak-1";
const ORG_TOKEN = "xoxb-org-token-do-not-leak-2";
const REFRESH = "xoxe-refresh-token-do-not-leak-3";

const workspaceInstall: Installation<"v2", false> = {
  team: { id: "T0WORK", name: "Work" },
  enterprise: undefined,
  isEnterpriseInstall: false,
  user: { id: "U0INSTALLER", token: undefined, scopes: undefined },
  bot: {
    token: WORKSPACE_TOKEN,
    refreshToken: REFRESH,
    expiresAt: 1_900_000_000,
    scopes: ["commands", "users:read"],
    id: "B0BOT",
    userId: "U0BOT",
  },
  tokenType: "bot",
  appId: "A0KASSA",
  authVersion: "v2",
};

const orgInstall: Installation<"v2", true> = {
  team: undefined,
  enterprise: { id: "E0GRID", name: "Grid" },
  isEnterpriseInstall: true,
  user: { id: "U0ORGADMIN", token: undefined, scopes: undefined },
  bot: { token: ORG_TOKEN, scopes: ["commands"], id: "B0BOT", userId: "U0BOT" },
  tokenType: "bot",
  appId: "A0KASSA",
  authVersion: "v2",
};

let dir: string;
let store: KeyvStore;
let installations: KeyvInstallationStore;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "kassa-installations-"));
  store = await openStore(`sqlite://${join(dir, "kassa.sqlite")}`);
  installations = new KeyvInstallationStore(
    store.namespace("installations"),
    new SecretBox(KEY),
    store.namespace("orgworkspaces"),
  );
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("KeyvInstallationStore", () => {
  it("keys org-wide installs by enterprise id and the others by team id", () => {
    expect(installationKey({ teamId: "T1", enterpriseId: "E1", isEnterpriseInstall: true })).toBe(
      "enterprise:E1",
    );
    expect(installationKey({ teamId: "T1", enterpriseId: "E1", isEnterpriseInstall: false })).toBe("team:T1");
    expect(
      installationKey({ teamId: undefined, enterpriseId: undefined, isEnterpriseInstall: false }),
    ).toBeUndefined();
  });

  it("finds the install acting for a workspace that knows only its team id: its own, else its org's once seen there", async () => {
    await installations.storeInstallation(orgInstall);
    await installations.storeInstallation(workspaceInstall);
    expect(await installations.forWorkspace("T0GRIDA")).toBeUndefined();
    await installations.noteOrgWorkspace("T0GRIDA", "E0GRID");
    await installations.noteOrgWorkspace("T0GRIDB", "E0GRID");
    await installations.noteOrgWorkspace("T0ELSE", "E0OTHER");
    expect(await installations.forWorkspace("T0GRIDA")).toMatchObject({
      orgWide: true,
      installation: { bot: { token: ORG_TOKEN } },
    });
    expect(await installations.forWorkspace("T0WORK")).toMatchObject({
      orgWide: false,
      installation: { bot: { token: WORKSPACE_TOKEN } },
    });
    // The org without an install any more: nothing acts for its workspaces.
    expect(await installations.forWorkspace("T0ELSE")).toBeUndefined();
    expect((await installations.workspacesOf("E0GRID")).sort()).toEqual(["T0GRIDA", "T0GRIDB"]);
    await installations.forgetOrgWorkspace("T0GRIDA");
    expect(await installations.orgOf("T0GRIDA")).toBeUndefined();
    expect(await installations.workspacesOf("E0GRID")).toEqual(["T0GRIDB"]);
    // Written down again when the workspace is seen again (the memory of this process was cleared too).
    await installations.noteOrgWorkspace("T0GRIDA", "E0GRID");
    expect(await installations.orgOf("T0GRIDA")).toBe("E0GRID");
  });

  it("stores and fetches a workspace install, rotating tokens included", async () => {
    await installations.storeInstallation(workspaceInstall);
    const found = await installations.fetchInstallation({
      teamId: "T0WORK",
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(found).toEqual(workspaceInstall);
    expect(await installations.installerUserId({ teamId: "T0WORK", isEnterpriseInstall: false })).toBe(
      "U0INSTALLER",
    );
  });

  it("stores an org-wide install and finds it for any workspace of the enterprise", async () => {
    await installations.storeInstallation(orgInstall);
    expect(
      await installations.fetchInstallation({
        teamId: undefined,
        enterpriseId: "E0GRID",
        isEnterpriseInstall: true,
      }),
    ).toEqual(orgInstall);
    expect(
      await installations.find({ teamId: "T0MEMBER", enterpriseId: "E0GRID", isEnterpriseInstall: false }),
    ).toEqual(orgInstall);
  });

  it("replaces an install when tokens are refreshed", async () => {
    await installations.storeInstallation(workspaceInstall);
    const bot = {
      scopes: ["commands", "users:read"],
      id: "B0BOT",
      userId: "U0BOT",
      refreshToken: REFRESH,
      token: "xoxb-rotated",
      expiresAt: 1_900_043_200,
    };
    const refreshed: Installation<"v2", false> = { ...workspaceInstall, bot };
    await installations.storeInstallation(refreshed);
    const found = await installations.fetchInstallation({
      teamId: "T0WORK",
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(found.bot?.token).toBe("xoxb-rotated");
  });

  it("throws for an unknown workspace (Bolt then refuses the request) and deletes", async () => {
    await expect(
      installations.fetchInstallation({
        teamId: "T0NONE",
        enterpriseId: undefined,
        isEnterpriseInstall: false,
      }),
    ).rejects.toThrow("no installation for team:T0NONE");
    await installations.storeInstallation(workspaceInstall);
    await installations.deleteInstallation({
      teamId: "T0WORK",
      enterpriseId: undefined,
      isEnterpriseInstall: false,
    });
    expect(await installations.find({ teamId: "T0WORK", isEnterpriseInstall: false })).toBeUndefined();
  });

  it("never writes a token to the database file in plaintext", async () => {
    await installations.storeInstallation(workspaceInstall);
    await installations.storeInstallation(orgInstall);
    const bytes = databaseBytes(join(dir, "kassa.sqlite"));
    expect(bytes.length).toBeGreaterThan(0);
    for (const secret of [WORKSPACE_TOKEN, ORG_TOKEN, REFRESH]) expect(bytes.includes(secret)).toBe(false);
    expect(bytes.includes("U0INSTALLER")).toBe(true);
  });

  it("refuses a tampered or moved installation instead of using it", async () => {
    await installations.storeInstallation(workspaceInstall);
    const raw = new Keyv({ store: store.namespace("installations").store, namespace: "installations" });
    const stored = (await raw.get("team:T0WORK")) as Record<string, unknown>;
    // Moved under another team: the team id is bound into the ciphertext.
    await raw.set("team:T0THIEF", stored);
    await expect(installations.find({ teamId: "T0THIEF", isEnterpriseInstall: false })).rejects.toThrow(
      StoreValueError,
    );
    await raw.set("team:T0WORK", { ...stored, sealed: "not sealed" });
    await expect(installations.find({ teamId: "T0WORK", isEnterpriseInstall: false })).rejects.toThrow(
      StoreValueError,
    );
  });
});
