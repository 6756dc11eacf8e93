import { boardOnFirstUse } from "../store/claims/family.js";
import { openClaimBoard } from "../store/claims/index.js";
import type { KeyvStore } from "../store/keyv.js";
import { DEFAULT_PREFIX } from "../store/schema/names.js";
import { LinkBook } from "./book.js";

export { LinkBook } from "./book.js";

/** The links' records on the store's claim board (opened at first use), on the server's clock. */
export function linkBookFor(
  store: Pick<KeyvStore, "native">,
  options: { prefix?: string | undefined; timeoutMs: number; now: () => number },
): LinkBook {
  const open = boardOnFirstUse(() =>
    openClaimBoard(store, options.prefix ?? DEFAULT_PREFIX, options.timeoutMs),
  );
  return new LinkBook(open, options.now);
}
