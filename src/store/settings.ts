import type Keyv from "keyv";
import { z } from "zod";
import { StoreValueError } from "./credentials.js";

/** What a workspace admin may choose for the whole workspace (App Home, connect modal). */
const settingsSchema = z.object({
  replyVisibility: z.enum(["channel", "private"]).optional(),
});
export type WorkspaceSettings = z.infer<typeof settingsSchema>;

export class SettingsStore {
  constructor(private readonly keyv: Keyv) {}

  async get(teamId: string): Promise<WorkspaceSettings> {
    const raw: unknown = await this.keyv.get(teamId);
    if (raw === undefined) return {};
    const parsed = settingsSchema.safeParse(raw);
    if (!parsed.success) throw new StoreValueError(`settings of ${teamId} are not in the expected form`);
    return parsed.data;
  }

  async update(teamId: string, changes: WorkspaceSettings): Promise<WorkspaceSettings> {
    const next = { ...(await this.get(teamId)), ...changes };
    await this.keyv.set(teamId, next);
    return next;
  }

  async remove(teamId: string): Promise<void> {
    await this.keyv.delete(teamId);
  }
}
