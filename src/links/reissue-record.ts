import type { Change } from "../store/claims/family.js";
import type { LinkBook } from "./book.js";
import { changeLink, type LinkRecord, linkKey } from "./record.js";

// A link's record as re-issue changes it (issue 51, item 3): the mark that it was re-issued, one
// compare-and-set of the family (record.ts), so of two clicks, or two replicas, marking one link at
// once, one wins: one new invoice. (Where its card went is noted by create.ts's noteCardPlaced.)

/** What marking a link re-issued came to. */
export type Marking =
  | { kind: "gone" }
  /** Re-issued before (another click, another replica): who did, and the new link's ref. */
  | { kind: "already"; record: LinkRecord }
  | { kind: "marked"; record: LinkRecord };

/** The link marked re-issued by `user` as `next`, unless it was already (one compare-and-set). */
export async function markReplaced(
  links: LinkBook,
  registerKey: string,
  ref: string,
  replacement: { next: string; user: string },
): Promise<Marking> {
  const board = await links.board();
  return changeLink(board, linkKey(registerKey, ref), (stored): Change<LinkRecord, Marking> => {
    const was = stored.value;
    if (!was) return { result: { kind: "gone" } };
    if (was.replacedBy) return { result: { kind: "already", record: was } };
    const next: LinkRecord = { ...was, replacedBy: replacement.next, replacedByUser: replacement.user };
    return { next, result: { kind: "marked", record: next } };
  });
}

/** The mark taken back when the new invoice surely was not made (refused, or nothing sent): pressing again may try. */
export async function unmarkReplaced(links: LinkBook, registerKey: string, ref: string, next: string) {
  const board = await links.board();
  await changeLink(board, linkKey(registerKey, ref), (stored) => {
    const was = stored.value;
    if (!was || was.replacedBy !== next) return { result: false };
    const { replacedBy: _next, replacedByUser: _user, ...rest } = was;
    return { next: rest, result: true };
  });
}
