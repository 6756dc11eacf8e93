import type Keyv from "keyv";
import { z } from "zod";

// Who may stop a live card's updates besides the workspace's admins: the person who asked for the
// card, and the person who created its invoice with /invoice new. Neither is trusted from the
// button (the watcher redraws a card from its own record, and a button's value only says which
// invoice), so both are written down here when the card is posted or the invoice created.

/** Longer than any watch may last (WATCH_MAX_HOURS is at most 720 h): the records expire after it. */
export const CARD_OWNERS_TTL_MS = 31 * 24 * 60 * 60 * 1000;

const userId = z.string().regex(/^[UW][A-Z0-9]{2,20}$/);
const cardSchema = z.object({ asker: userId });
const createdSchema = z.object({ creator: userId });

/** Who asked for a card and who created its invoice, where known. */
export type CardOwners = { asker?: string | undefined; creator?: string | undefined };

export class CardOwnersStore {
  constructor(
    private readonly keyv: Keyv,
    private readonly ttlMs = CARD_OWNERS_TTL_MS,
  ) {}

  /** A channel card was posted (and is watched) for `asker`. */
  async noteCard(teamId: string, card: { channel: string; ts: string }, asker: string): Promise<void> {
    await this.keyv.set(cardKey(teamId, card), { asker }, this.ttlMs);
  }

  /** `creator` created the invoice (/invoice new). */
  async noteCreator(teamId: string, invoiceId: string, creator: string): Promise<void> {
    await this.keyv.set(createdKey(teamId, invoiceId), { creator }, this.ttlMs);
  }

  /** Who asked for the card and who created its invoice; a record that does not parse counts as none. */
  async of(teamId: string, card: { channel: string; ts: string; invoiceId: string }): Promise<CardOwners> {
    const [cardRecord, createdRecord]: unknown[] = await Promise.all([
      this.keyv.get(cardKey(teamId, card)),
      this.keyv.get(createdKey(teamId, card.invoiceId)),
    ]);
    const asker = cardSchema.safeParse(cardRecord);
    const created = createdSchema.safeParse(createdRecord);
    return {
      asker: asker.success ? asker.data.asker : undefined,
      creator: created.success ? created.data.creator : undefined,
    };
  }

  /** Everything of the workspace (uninstall). */
  async removeTeam(teamId: string): Promise<void> {
    const iterator = this.keyv.iterator;
    if (!iterator) return;
    const prefix = `${teamId}/`;
    const found = new Set<string>();
    for await (const [key] of iterator(this.keyv.namespace)) {
      if (String(key).startsWith(prefix)) found.add(String(key));
    }
    for (const key of found) await this.keyv.delete(key);
  }
}

function cardKey(teamId: string, card: { channel: string; ts: string }): string {
  return `${teamId}/card/${card.channel}/${card.ts}`;
}

function createdKey(teamId: string, invoiceId: string): string {
  return `${teamId}/created/${invoiceId}`;
}
