import { type PaidLink, paidTwiceMessage } from "../blocks/link-reminder.js";
import { giveBackPaidTwice, takePaidTwice } from "./changes.js";
import { ownerOf, tellOwner } from "./owner.js";
import { type LinkRecord, linkKey, readLink } from "./record.js";
import { type LifeDeps, settleOutcome } from "./standing.js";

// Paid twice (issue 51): a link re-issued before it expired leaves two pages open, and a payer may
// pay both. The re-issue (its record `replaces` the first) watches the pair every pass while both
// may still be paid; both paid, one alert (taken by compare-and-set) goes to the creator and into the
// first card's thread, naming both invoices and that one payment may need refunding.

/** The pair looked at: whether to look again next pass, and the re-issue's record as it is now. */
export type PairLook = { watching: boolean; record: LinkRecord };

/** One look at a re-issue and the link it replaced. */
export async function watchPair(
  deps: LifeDeps,
  key: string,
  registerKey: string,
  record: LinkRecord,
  now: number,
): Promise<PairLook> {
  if (!record.replaces || record.paidTwiceTold) return { watching: false, record };
  const firstKey = linkKey(registerKey, record.replaces);
  const first = await readLink(await deps.book.board(), firstKey);
  // Re-issued after the first expired (or its record forgotten): only one page was ever open.
  if (first?.expiresAt === undefined || record.createdAt >= first.expiresAt)
    return { watching: false, record };
  const a = await settleOutcome(deps, firstKey, registerKey, first, now);
  if (a.state === "expired") return { watching: false, record };
  const b = await settleOutcome(deps, key, registerKey, record, now);
  if (b.state === "expired") return { watching: false, record: b.record };
  if (a.state !== "paid" || b.state !== "paid") return { watching: true, record: b.record };
  const told = await alert(deps, key, a.record, b.record);
  return { watching: !told, record: { ...b.record, paidTwiceTold: told } };
}

const paid = (record: LinkRecord): PaidLink => ({
  invoiceId: record.invoiceId ?? record.ref,
  amount: record.amount,
  currency: record.currency,
});

/** The alert, once: to the first link's creator and in its card's thread. False: nobody got it (tried again). */
async function alert(deps: LifeDeps, key: string, first: LinkRecord, second: LinkRecord): Promise<boolean> {
  const board = await deps.book.board();
  if (!(await takePaidTwice(board, key))) return true;
  const line = { team: first.team, link: key, invoices: [paid(first).invoiceId, paid(second).invoiceId] };
  const owner = await ownerOf(deps, first).catch(() => undefined);
  if (!owner) {
    deps.logger.warn(line, "a payment link was paid twice; nobody in Slack could be told");
    return true;
  }
  const message = paidTwiceMessage(paid(first), paid(second), owner.lang);
  const card = first.card ?? second.card;
  const where: string[] = [];
  if (card)
    await owner.client.chat
      .postMessage({ channel: card.channel, thread_ts: card.ts, text: message.text, blocks: message.blocks })
      .then(() => where.push("thread"))
      .catch((error: unknown) =>
        deps.logger.warn({ ...line, err: error }, "the paid-twice alert missed the card"),
      );
  // Only a creator who can read it directly is told apart from the thread; else the channel, if no card.
  const direct = owner.person && owner.active ? owner : card ? undefined : owner;
  if (direct)
    await tellOwner(direct, first, () => message)
      .then((told) => where.push(told))
      .catch((error: unknown) =>
        deps.logger.warn({ ...line, err: error }, "the paid-twice alert missed its creator"),
      );
  // Every delivery refused: given back, tried again next pass. Nowhere to tell ("nobody") stays told.
  if (where.length === 0) {
    await giveBackPaidTwice(board, key);
    return false;
  }
  deps.logger.info(
    { ...line, outcome: "link_paid_twice", told: where },
    "a payment link and its re-issue were both paid",
  );
  return true;
}
