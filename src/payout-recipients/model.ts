import { z } from "zod";
import { METHOD_CODE, USER_ID } from "../payouts/policy.js";
import { defineFamily } from "../store/claims/family.js";
import type { ClaimBoard } from "../store/claims/index.js";

// A register's trusted recipients (issue 52, item 1): each one an item of family `payout-recipient`
// on the claim board (key `registerKey/id`, state `recipient`), and the register's list of them (key
// the register's key, state `list`: id, label and status of each), which keeps labels unique and
// lets /payout recipients read them. Every change is a compare-and-set through RECIPIENTS.update.

export const RECIPIENT_FAMILY = "payout-recipient";
export const RECIPIENT_FIELD = "recipient";
export const LIST_FIELD = "list";
/** Recipients listed per register at most (removed ones included, oldest removed ones dropped first). */
export const LISTED_MAX = 200;
/** Confirmations that make a recipient trusted: two different approvers, neither the one who added it. */
export const CONFIRMATIONS_NEEDED = 2;

/** Ids as src/payments/marker.ts's newRef makes them: 10 base32 letters. */
export const RECIPIENT_ID = /^[a-z2-7]{10}$/;
/** A label: a letter somewhere (never read as an amount), no line breaks, at most 80 characters. */
export const LABEL_MAX = 80;

const time = z.iso.datetime();
const person = z.string().regex(USER_ID);
const byAt = z.object({ by: person, at: time });

export const RECIPIENT_STATUSES = ["pending", "trusted", "removed"] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

export const recipientSchema = z.object({
  v: z.literal(1),
  id: z.string().regex(RECIPIENT_ID),
  registerKey: z.string().min(1).max(200),
  team: z.string().min(1),
  label: z.string().min(1).max(LABEL_MAX),
  method: z.string().regex(METHOD_CODE),
  wallet: z.string().min(1).max(512),
  /** v3's wallet_extra (a memo, a tag), as the adder gave it. */
  walletExtra: z.string().max(200).optional(),
  note: z.string().max(300),
  added: byAt,
  confirmations: z.array(byAt).max(CONFIRMATIONS_NEEDED),
  status: z.enum(RECIPIENT_STATUSES),
  trustedAt: time.optional(),
  removed: byAt.optional(),
  /** When a payout to it last ended paid, and which. */
  lastPaid: z.object({ at: time, payout: z.string().min(1).max(100) }).optional(),
  /** Its card in the approval channel (to update it as confirmations come). */
  card: z.object({ channel: z.string().min(1), ts: z.string().min(1) }).optional(),
});
export type Recipient = z.infer<typeof recipientSchema>;

const listedSchema = z.object({
  id: z.string().regex(RECIPIENT_ID),
  label: z.string().min(1).max(LABEL_MAX),
  status: z.enum(RECIPIENT_STATUSES),
});
export type Listed = z.infer<typeof listedSchema>;
const listSchema = z.array(listedSchema).max(LISTED_MAX);

export const RECIPIENTS = defineFamily({
  name: RECIPIENT_FAMILY,
  fields: { [RECIPIENT_FIELD]: recipientSchema, [LIST_FIELD]: listSchema },
  kept: "while its register is connected (a removed one stays listed as removed, for the audit)",
});

export const recipientKey = (registerKey: string, id: string) => `${registerKey}/${id}`;

/** Labels compared as people read them: case and surrounding spaces aside. */
export const sameLabel = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** Wallets compared as written, spaces aside (methods: case aside). */
export function sameWallet(
  recipient: Pick<Recipient, "method" | "wallet">,
  method: string,
  wallet: string,
): boolean {
  const plain = (text: string) => text.replace(/\s+/g, "");
  return recipient.method.toUpperCase() === method.toUpperCase() && plain(recipient.wallet) === plain(wallet);
}

/** The wallet's last four characters (spaces aside), as an approver types them. */
export function lastFourOf(wallet: string): string {
  return wallet.replace(/\s+/g, "").slice(-4);
}

/** `TQ7…9fA2`: a long wallet shortened to its first three and last four characters. */
export function shortWallet(wallet: string): string {
  const plain = wallet.replace(/\s+/g, "");
  return plain.length <= 10 ? plain : `${plain.slice(0, 3)}…${plain.slice(-4)}`;
}

/** The register's list (empty when none, or unreadable). */
export async function readList(board: ClaimBoard, registerKey: string): Promise<Listed[]> {
  return (await RECIPIENTS.read(board, registerKey, LIST_FIELD)).value ?? [];
}

/** One recipient; undefined when none (or unreadable). */
export async function readRecipient(
  board: ClaimBoard,
  registerKey: string,
  id: string,
): Promise<Recipient | undefined> {
  if (!RECIPIENT_ID.test(id)) return undefined;
  const read = await RECIPIENTS.read(board, recipientKey(registerKey, id), RECIPIENT_FIELD);
  return read.value?.registerKey === registerKey ? read.value : undefined;
}

/** Every recipient of the register still listed (removed ones left out unless asked), in list order. */
export async function readRecipients(
  board: ClaimBoard,
  registerKey: string,
  options: { removed?: boolean } = {},
): Promise<Recipient[]> {
  const listed = (await readList(board, registerKey)).filter(
    (one) => options.removed || one.status !== "removed",
  );
  const read = await Promise.all(listed.map((one) => readRecipient(board, registerKey, one.id)));
  return read.filter(
    (one): one is Recipient => one !== undefined && (options.removed || one.status !== "removed"),
  );
}

/** The register's list with `entry` in it (replacing its id's), removed ones dropped oldest first past the cap. */
export function listWith(list: Listed[], entry: Listed): Listed[] {
  const next = [...list.filter((one) => one.id !== entry.id), entry];
  while (next.length > LISTED_MAX) {
    const removed = next.findIndex((one) => one.status === "removed");
    next.splice(removed < 0 ? 0 : removed, 1);
  }
  return next;
}
