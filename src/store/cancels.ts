import type Keyv from "keyv";
import { z } from "zod";

/** How long a Cancel press is remembered: longer than any read it could stop. */
const CANCEL_TTL_MS = 60 * 60_000;
const userSchema = z.string().regex(/^[UW][A-Z0-9]{2,20}$/);

/**
 * Cancel presses on long reads (a report, an export), in the shared store: the press may reach
 * another replica than the one reading, which looks here after each page it reads.
 */
export class CancelMarks {
  constructor(private readonly keyv: Keyv) {}

  async mark(jobId: string, by: string): Promise<void> {
    await this.keyv.set(jobId, by, CANCEL_TTL_MS);
  }

  /** Who pressed Cancel on this read, if anyone did. */
  async markedBy(jobId: string): Promise<string | undefined> {
    const parsed = userSchema.safeParse(await this.keyv.get(jobId));
    return parsed.success ? parsed.data : undefined;
  }
}
