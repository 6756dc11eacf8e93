import type { webApi } from "@slack/bolt";
import type { SlackMessage } from "../blocks/message.js";

/** The progress message appears once an export has run this long, and is edited at most this often. */
export const PROGRESS_AFTER_MS = 3000;
export const PROGRESS_EVERY_MS = 3000;

export type ProgressState = { pages: number; invoices: number; writing?: boolean };

/**
 * The progress message: posted once the export has run PROGRESS_AFTER_MS, then edited at most every
 * PROGRESS_EVERY_MS, one call at a time (so a late edit never overwrites the end), and at last
 * replaced by how it ended. Slack's failures here cost only the progress line; the export goes on.
 */
export class ProgressMessage {
  private ts: string | undefined;
  private chain: Promise<void> = Promise.resolve();
  private shownAt = 0;
  private readonly startedAt = Date.now();

  constructor(
    private readonly client: webApi.WebClient,
    private readonly channel: string,
    private readonly build: (state: ProgressState) => SlackMessage,
    private readonly onPosted: ((ts: string) => void) | undefined,
  ) {}

  show(state: ProgressState): void {
    const now = Date.now();
    if (now - this.startedAt < PROGRESS_AFTER_MS || now - this.shownAt < PROGRESS_EVERY_MS) return;
    this.shownAt = now;
    this.send(this.build(state));
  }

  /** The end in place of the progress; `always` false: nothing when no progress was ever shown. */
  async finish(message: SlackMessage, always = true): Promise<void> {
    if (always || this.shownAt > 0) this.send(message);
    await this.chain;
  }

  private send(message: SlackMessage): void {
    const { text, blocks } = message;
    this.chain = this.chain
      .then(async () => {
        if (this.ts) await this.client.chat.update({ channel: this.channel, ts: this.ts, text, blocks });
        else {
          this.ts = (await this.client.chat.postMessage({ channel: this.channel, text, blocks })).ts;
          if (this.ts) this.onPosted?.(this.ts);
        }
      })
      .catch(() => undefined);
  }
}
