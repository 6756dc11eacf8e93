import type Keyv from "keyv";
import { z } from "zod";
import { langSchema } from "../i18n/lang.js";
import { StoreValueError } from "./credentials.js";
import { Memo } from "./memo.js";

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

export class SettingsStore {
  private readonly memo: Memo<WorkspaceSettings>;

  constructor(
    private readonly keyv: Keyv,
    memoMs = 0,
  ) {
    this.memo = new Memo(memoMs);
  }

  async get(teamId: string): Promise<WorkspaceSettings> {
    const remembered = this.memo.get(teamId, undefined);
    if (remembered) return remembered;
    const raw: unknown = await this.keyv.get(teamId);
    const parsed = settingsSchema.safeParse(raw ?? {});
    if (!parsed.success) throw new StoreValueError(`settings of ${teamId} are not in the expected form`);
    this.memo.set(teamId, parsed.data);
    return parsed.data;
  }

  async update(teamId: string, changes: WorkspaceSettings): Promise<WorkspaceSettings> {
    const next = { ...(await this.get(teamId)), ...changes };
    await this.keyv.set(teamId, next);
    this.memo.delete(teamId);
    return next;
  }

  async remove(teamId: string): Promise<void> {
    this.memo.delete(teamId);
    await this.keyv.delete(teamId);
  }
}
