import { z } from "zod";
import { INVOICE_ID_PATTERN } from "../payments/payment-link.js";

/**
 * What each button carries, written and read by one codec: the builders write with `write`, the
 * listeners read with `schema` (through readButtonValue), so the two cannot drift apart. Keys are one
 * or two letters: a value holds at most 2,000 characters and a card carries several. No amounts, no
 * secrets: whatever else a handler needs it reads again.
 */
function codec<S extends z.ZodType>(schema: S) {
  return {
    schema,
    /** JSON with <, > and & as \u escapes: text from the service stays inert wherever it is shown. */
    write(value: z.input<S>): string {
      return JSON.stringify(value).replace(/</g, "\\u003c").replace(/>/g, "\\u003e").replace(/&/g, "\\u0026");
    },
  };
}

/** What /invoice list can show: everything, paid, or not paid yet. */
export const LIST_FILTERS = ["all", "paid", "notpaid"] as const;
export type ListFilter = (typeof LIST_FILTERS)[number];

const teamId = z.string().min(1).max(32);
const userId = z.string().regex(/^[UW][A-Z0-9]{2,20}$/);

/** A register's name (the store's registerNameSchema checks it before use). */
const registerName = z.string().min(1).max(20);

/** Refresh, Share, Open: workspace, invoice id, state first shown, who shared or created it, what was typed. */
export const invoiceButton = codec(
  z.object({
    t: teamId,
    id: z.string().regex(INVOICE_ID_PATTERN),
    s: z.string().max(100),
    by: userId.optional(),
    cb: userId.optional(),
    en: z.string().max(40).optional(),
    r: registerName.optional(),
    /** The customer its creator named (issue 51), kept on a refreshed card. */
    cu: z.string().min(1).max(80).optional(),
  }),
);
export type InvoiceButtonValue = z.infer<typeof invoiceButton.schema>;

/** Create now: the workspace, the unsure link's ref (payments/marker.ts) and its register (main's when left out). */
export const createNowButton = codec(
  z.object({ t: teamId, k: z.string().regex(/^[a-z2-7]{10}$/), r: registerName.optional() }),
);

/**
 * A payment link's Re-issue, Copy link and Stop reminding (issue 51): the workspace, the link's ref
 * and its register (main's when left out); `e`: Re-issue anyway, after the warning that the old link
 * still works.
 */
export const linkButton = codec(
  z.object({
    t: teamId,
    k: z.string().regex(/^[a-z2-7]{10}$/),
    r: registerName.optional(),
    e: z.literal(1).optional(),
  }),
);
export type LinkButtonValue = z.infer<typeof linkButton.schema>;

/** A schedule's Pause, Resume and Delete (`/invoice recurring`): the workspace, the schedule, its register. */
export const scheduleButton = codec(
  z.object({ t: teamId, s: z.string().regex(/^[a-z2-7]{10}$/), r: registerName.optional() }),
);

/** Stop updating: the workspace and the invoice (the card is the message pressed). */
export const stopButton = codec(z.object({ t: teamId, id: z.string().regex(INVOICE_ID_PATTERN) }));
export type StopButtonValue = z.infer<typeof stopButton.schema>;

/** /paymethods pages: the filter as typed, the page and, with several registers, the register. */
export const paymethodsPageButton = codec(
  z.object({ f: z.string().max(100), p: z.number().int().min(1).max(1000), r: registerName.optional() }),
);

/** /invoice list pages and Share: the workspace, the filter, the page and, with several, the register. */
export const listPageButton = codec(
  z.object({
    t: teamId,
    f: z.enum(LIST_FILTERS),
    p: z.number().int().min(1).max(100),
    r: registerName.optional(),
  }),
);
export type ListButtonValue = z.infer<typeof listPageButton.schema>;

/**
 * `/invoice unpaid` pages: the workspace, the page, the period (`d`), the customer asked for (`c`)
 * and, with several, the register.
 */
export const unpaidPageButton = codec(
  z.object({
    t: teamId,
    p: z.number().int().min(1).max(1000),
    d: z.string().regex(/^(?:today|yesterday|7d|30d|\d{4}-(?:0[1-9]|1[0-2]))$/),
    c: z.string().min(1).max(80).optional(),
    r: registerName.optional(),
  }),
);
export type UnpaidButtonValue = z.infer<typeof unpaidPageButton.schema>;

/** Disconnect, from the confirmation message: the workspace it names. */
export const disconnectButton = codec(z.object({ t: z.string().min(1), r: registerName.optional() }));

/** A feed's Settings: the workspace, the feed's channel (the form is that channel's) and its register (main's when left out). */
export const feedSettingsButton = codec(
  z.object({ t: teamId, c: z.string().regex(/^[CG][A-Z0-9]{2,40}$/), r: registerName.optional() }),
);
export type FeedSettingsValue = z.infer<typeof feedSettingsButton.schema>;
/**
 * Cancel on a long read's progress message (a report, an export): the workspace, the read's id and,
 * on an export's, who asked for it (anyone else pressing must be an admin; buttons from before it was
 * written carry none).
 */
export const cancelReadButton = codec(
  z.object({ t: teamId, j: z.string().regex(/^[a-z0-9]{8,40}$/), u: userId.optional() }),
);
export type CancelReadButtonValue = z.infer<typeof cancelReadButton.schema>;

/**
 * `/invoice audit`'s Older: the workspace and where the next page starts (the entry number it lists
 * before), with what the listing asked for (period, subject, person); the handler checks the presser
 * is an admin of that workspace again and reads the trail again.
 */
export const auditPageButton = codec(
  z.object({
    t: teamId,
    b: z.number().int().min(1),
    p: z.string().regex(/^(?:all|today|7d|30d|\d{4}-(?:0[1-9]|1[0-2]))$/),
    w: z
      .string()
      .regex(/^[a-z]{2,20}$/)
      .optional(),
    a: userId.optional(),
  }),
);
export type AuditPageValue = z.infer<typeof auditPageButton.schema>;

/** A payment method's alert: the register's name and the method's code (its handlers read both again). */
export const methodAlertButton = codec(
  z.object({
    r: registerName,
    c: z.string().min(1).max(40),
  }),
);
export type MethodAlertValue = z.infer<typeof methodAlertButton.schema>;
