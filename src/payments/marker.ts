import { randomBytes } from "node:crypto";

// Kassa's marker in an invoice's `extra` (issue 51): the one module that writes and reads it. Every
// invoice Kassa creates carries ` kassa:<ref>` after the user's own text, so the register's history
// tells which invoices Kassa made, and an invoice whose create answer was lost is found by its ref.
// The user's text is kept first and never cut: where it leaves no room, no marker is written (the
// link's record alone knows the invoice). Whoever shows `extra` to people shows `ownExtra`, never
// Kassa's part as if it were the user's. It sits with the service's fields (payments/), below the
// card (blocks/) and the exports, which read it too.

/** What precedes a ref in `extra`. */
export const MARKER_PREFIX = "kassa:";
/** RFC 4648 base32, lower case: 10 characters are 50 random bits. */
const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
export const REF_LENGTH = 10;
/** A ref as Kassa writes it. */
export const REF_PATTERN = /^[a-z2-7]{10}$/;
/** The marker at the very end of `extra`, alone or after the user's text and one space. */
const MARKED = /(?:^|\s)kassa:([a-z2-7]{10})$/;
/**
 * The longest `extra` Kassa sends. The service documents no maximum (shared/notes/payments-api.md):
 * Kassa keeps the whole within 255 characters, its own part within 17 (` kassa:` and the ref).
 */
export const EXTRA_MAX_LENGTH = 255;

/** A fresh ref: 10 base32 characters from the system's random source (a byte's low 5 bits each). */
export function newRef(random: (size: number) => Uint8Array = randomBytes): string {
  const bytes = random(REF_LENGTH);
  let ref = "";
  for (let index = 0; index < REF_LENGTH; index += 1) ref += ALPHABET[(bytes[index] ?? 0) & 31];
  return ref;
}

/** The marker as it is written after the user's text (or alone). */
export function markerOf(ref: string): string {
  return `${MARKER_PREFIX}${ref}`;
}

/**
 * The `extra` to send: the user's own text first, then the marker; the user's text alone when the
 * whole would pass EXTRA_MAX_LENGTH (never cut); undefined when there is neither.
 */
export function withMarker(own: string | undefined, ref: string): { extra: string; marked: boolean } {
  if (!REF_PATTERN.test(ref)) throw new Error("not a Kassa ref");
  const text = own ?? "";
  const whole = text === "" ? markerOf(ref) : `${text} ${markerOf(ref)}`;
  if (whole.length <= EXTRA_MAX_LENGTH) return { extra: whole, marked: true };
  return { extra: text, marked: false };
}

/** `extra` read back: the user's own text (null when none) and Kassa's ref (null when none). */
export function readExtra(extra: string | null | undefined): { own: string | null; ref: string | null } {
  if (!extra) return { own: null, ref: null };
  const found = MARKED.exec(extra);
  if (!found) return { own: extra, ref: null };
  const own = extra.slice(0, found.index).trimEnd();
  return { own: own === "" ? null : own, ref: found[1] ?? null };
}

/** What people are shown of `extra`: the user's own text, without Kassa's marker. */
export function ownExtra(extra: string | null | undefined): string | null {
  return readExtra(extra).own;
}
