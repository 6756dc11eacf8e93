import { z } from "zod";
import { CHANNEL_ID, USER_ID } from "./policy.js";

// What Slack was told about a request: its card in the approval channel, the requester's copy by
// direct message, and the notes at its end. A second state of the request's item (NOTICE_FIELD),
// changed by compare-and-set apart from the request itself, so a vote never waits on Slack and a
// card's update never races a vote. What is owed is what the request says and the notice does not
// show yet: the worker delivers it (at least once; an update is harmless to repeat).

export const NOTICE_FIELD = "notice";

const message = z.object({ channel: z.string().min(1).max(40), ts: z.string().min(1).max(40) });
const decimal = z.string().regex(/^-?\d+(\.\d+)?$/);

export const payoutNoticeSchema = z.object({
  v: z.literal(1),
  /** Where the card goes: the approval channel when it was requested. */
  channel: z.string().regex(CHANNEL_ID),
  requester: z.string().regex(USER_ID),
  /** The register's name, and whether the workspace had several (the card then says which). */
  register: z.string().min(1).max(40),
  several: z.boolean(),
  lang: z.enum(["en", "ru"]),
  /** The method's balance when it was requested (null: not read in time). */
  balance: z.object({ value: decimal, currency: z.string().min(1).max(16) }).nullable(),
  /** The requester's RUB today (this request included) and their daily cap, at the request. */
  today: z.object({ total: decimal, cap: decimal }),
  card: message.optional(),
  /** What the card last showed (a key of the request's state); differs: an update is owed. */
  cardShows: z.string().optional(),
  copy: message.optional(),
  copyShows: z.string().optional(),
  /** Notes sent at the end: "thread" (under the card), "requester" (by direct message). */
  told: z.array(z.enum(["thread", "requester"])),
  /**
   * End notes being posted: written under the worker's claim (its token) before Slack is called and
   * taken off once Slack answered. One found from another claim ended without word: it may be there.
   */
  noting: z
    .array(z.object({ to: z.enum(["thread", "requester"]), token: z.string().min(1), at: z.iso.datetime() }))
    .optional(),
});
export type PayoutNotice = z.infer<typeof payoutNoticeSchema>;
