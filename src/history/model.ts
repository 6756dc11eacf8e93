import { z } from "zod";
import { type HistoryEntry, mayStillChange } from "../payments/history.js";
import { HISTORY_LIMITS } from "../payments/history-limits.js";
import type { Money } from "../payments/model.js";

/**
 * One kept invoice, as the store holds it: short keys (a register keeps tens of thousands), every
 * amount an exact decimal string with its currency, the time as the service wrote it and its epoch.
 */
const L = HISTORY_LIMITS;
const moneySchema = z.tuple([z.string().max(L.decimal), z.string().max(L.currency).nullable()]);
/** The same limits as the service's answer is read with: whatever was read is kept and read back. */
export const keptEntrySchema = z.object({
  i: z.string().min(1).max(L.id),
  s: z.string().min(1).max(L.state),
  m: z.string().max(L.method).nullable(),
  t: z.string().max(L.time),
  e: z.number().int(),
  a: moneySchema.nullable(),
  r: z.string().max(L.decimal).nullable(),
  ty: z.string().max(L.type).nullable().optional(),
  u: z.string().max(L.url).nullable().optional(),
  de: z.string().max(L.description).nullable().optional(),
  ex: z.string().max(L.extra).nullable().optional(),
  p: moneySchema.nullable().optional(),
  c: moneySchema.nullable().optional(),
  /** When the payment page closes: epoch seconds, and the service's own text of it. */
  x: z.number().int().nullable().optional(),
  xt: z.string().max(L.time).optional(),
});
export type KeptEntry = z.infer<typeof keptEntrySchema>;
export const dayChunkSchema = z.array(keptEntrySchema);

const money = (value: Money | null | undefined): [string, string | null] | null =>
  value ? [value.value, value.currency] : null;
const moneyOf = (value: [string, string | null] | null | undefined): Money | null =>
  value ? { value: value[0], currency: value[1] } : null;

export function keep(entry: HistoryEntry): KeptEntry {
  const d = entry.details;
  return {
    i: entry.id,
    s: entry.state,
    m: entry.method,
    t: entry.createdAt.text,
    e: entry.createdAt.epochSeconds,
    a: money(entry.amount),
    r: entry.rub,
    ...(d
      ? {
          ty: d.type,
          u: d.url,
          de: d.description,
          ex: d.extra,
          p: money(d.paid),
          c: money(d.commission),
        }
      : {}),
    ...(entry.expiresAt ? { x: entry.expiresAt.epochSeconds, xt: entry.expiresAt.text } : {}),
  };
}

export function unkeep(kept: KeptEntry, zone: string): HistoryEntry {
  return {
    id: kept.i,
    state: kept.s,
    method: kept.m,
    createdAt: { text: kept.t, zone, epochSeconds: kept.e },
    amount: moneyOf(kept.a),
    rub: kept.r,
    expiresAt: kept.x == null ? null : { text: kept.xt ?? "", zone, epochSeconds: kept.x },
    details: {
      type: kept.ty ?? null,
      url: kept.u ?? null,
      description: kept.de ?? null,
      extra: kept.ex ?? null,
      paid: moneyOf(kept.p),
      commission: moneyOf(kept.c),
    },
  };
}

/** Whether the service may still change what this invoice says (so a refresh reads it again). */
export function mayChange(entry: KeptEntry, nowSeconds: number): boolean {
  return mayStillChange({ state: entry.s, createdAt: entry.e, expiresAt: entry.x ?? null }, nowSeconds);
}

/** The UTC day an invoice is filed under: one stored chunk per day. */
export const dayKey = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString().slice(0, 10);

/**
 * What the store knows about a register's kept history: whose it is, how far back it reaches
 * without a gap (every invoice created at or after `coveredFrom`, up to the last refresh), and its
 * days with how many invoices and the oldest one that may still change.
 */
export const manifestSchema = z.object({
  v: z.literal(1),
  login: z.string(),
  apiVersion: z.enum(["v2", "v3"]),
  zone: z.string(),
  coveredFrom: z.number().int().nullable(),
  /** The history was read to its very first invoice: nothing older exists. */
  complete: z.boolean(),
  refreshedAt: z.number().int(),
  newest: z.number().int().nullable(),
  /** Invoices kept (the newest this many of the history): where reading further back resumes. */
  count: z.number().int().nonnegative(),
  days: z.record(z.string(), z.object({ count: z.number().int(), open: z.number().int().nullable() })),
});
export type Manifest = z.infer<typeof manifestSchema>;

export function emptyManifest(register: { login: string; apiVersion: "v2" | "v3" }, zone: string): Manifest {
  return {
    v: 1,
    ...register,
    zone,
    coveredFrom: null,
    complete: false,
    refreshedAt: 0,
    newest: null,
    count: 0,
    days: {},
  };
}

/** The oldest creation time among kept invoices that may still change (a refresh reads back to it). */
export function oldestOpen(manifest: Manifest): number | null {
  let oldest: number | null = null;
  for (const day of Object.values(manifest.days))
    if (day.open !== null && (oldest === null || day.open < oldest)) oldest = day.open;
  return oldest;
}
