import type Keyv from "keyv";
import { z } from "zod";
import { langSchema } from "../i18n/lang.js";
import type { ClaimBoard } from "./claims/board.js";
import { BoardDocument } from "./claims/document.js";
import { openClaimBoard } from "./claims/index.js";
import { StoreValueError } from "./credentials.js";
import { DEFAULT_STORE_TIMEOUT_MS } from "./deadline.js";
import type { KeyvStore } from "./keyv.js";
import { Memo } from "./memo.js";
import { DEFAULT_PREFIX } from "./schema/names.js";

/** What a workspace admin may choose for the whole workspace (App Home, connect modal). */
const settingsSchema = z.object({
  replyVisibility: z.enum(["channel", "private"]).optional(),
  /** Who may see /balance; unset means admins only. */
  balanceVisibility: z.enum(["admins", "everyone"]).optional(),
  /** Who may create invoices with /invoice new; unset means admins only. */
  invoiceCreators: z.enum(["admins", "everyone"]).optional(),
  /**
   * Whether workflows (Kassa's Create invoice step in Workflow Builder) may create invoices; unset
   * means no. Slack does not tell a step who runs its workflow, so this is the workspace's choice.
   */
  workflowCreates: z.enum(["off", "on"]).optional(),
  /** The language Kassa writes in for this workspace; unset means English. */
  language: langSchema.optional(),
  /** Where the audit chain's head is posted once a day (/invoice audit channel); unset means nowhere. */
  auditChannel: z
    .string()
    .regex(/^[CG][A-Z0-9]{2,30}$/)
    .optional(),
});
export type WorkspaceSettings = z.infer<typeof settingsSchema>;

/**
 * May a workflow create invoices here? When an admin allowed it, or when everyone may create them
 * anyway (a workflow then can do nothing its builder could not do with /invoice new).
 */
export function workflowsMayCreate(settings: WorkspaceSettings): boolean {
  return settings.workflowCreates === "on" || settings.invoiceCreators === "everyone";
}

/** The board's family of the workspaces' settings: item = team id, one state SETTINGS_FIELD. */
export const SETTINGS_FAMILY = "settings";
const SETTINGS_FIELD = "settings";

/**
 * A workspace's settings: one document on the claim board, changed by compare-and-set, so two admins
 * changing two settings at once on two replicas both keep theirs. Settings kept before as a Keyv
 * document (`legacy`) are read until the first change, which moves them onto the board.
 */
export class SettingsStore {
  private readonly memo: Memo<WorkspaceSettings>;
  private readonly document: BoardDocument<WorkspaceSettings>;

  constructor(
    private readonly legacy: Keyv,
    openBoard: () => Promise<ClaimBoard>,
    memoMs = 0,
  ) {
    this.memo = new Memo(memoMs);
    this.document = new BoardDocument(openBoard, SETTINGS_FAMILY, SETTINGS_FIELD, (raw) => {
      const parsed = settingsSchema.safeParse(raw);
      return parsed.success ? parsed.data : undefined;
    });
  }

  async get(teamId: string): Promise<WorkspaceSettings> {
    const remembered = this.memo.get(teamId, undefined);
    if (remembered) return remembered;
    const { raw, value } = await this.document.read(teamId);
    if (raw !== undefined && !value) throw unreadable(teamId);
    const settings = value ?? (await this.legacyOf(teamId));
    this.memo.set(teamId, settings);
    return settings;
  }

  /** Sets `changes` on the settings as stored now (never on a remembered copy); the settings written. */
  async update(teamId: string, changes: WorkspaceSettings): Promise<WorkspaceSettings> {
    this.memo.delete(teamId);
    const next = await this.document.update(teamId, async (current, stored) => {
      if (stored && !current) throw unreadable(teamId);
      return { ...(current ?? (await this.legacyOf(teamId))), ...changes };
    });
    this.memo.delete(teamId);
    return next;
  }

  async remove(teamId: string): Promise<void> {
    this.memo.delete(teamId);
    await Promise.all([this.document.remove(teamId), this.legacy.delete(teamId)]);
  }

  /** The settings as kept before they moved onto the board (none: the defaults). */
  private async legacyOf(teamId: string): Promise<WorkspaceSettings> {
    const parsed = settingsSchema.safeParse((await this.legacy.get(teamId)) ?? {});
    if (!parsed.success) throw unreadable(teamId);
    return parsed.data;
  }
}

function unreadable(teamId: string): StoreValueError {
  return new StoreValueError(`settings of ${teamId} are not in the expected form`);
}

/** A store's settings: on its claim board (the store's prefix), with what was kept before in Keyv. */
export function settingsStoreFor(
  store: KeyvStore,
  options: { timeoutMs?: number | undefined; memoMs?: number | undefined } = {},
): SettingsStore {
  const timeoutMs = options.timeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
  return new SettingsStore(
    store.namespace("settings"),
    () => openClaimBoard(store, DEFAULT_PREFIX, timeoutMs),
    options.memoMs ?? 0,
  );
}
