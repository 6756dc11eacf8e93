/** A moment the service wrote as local wall-clock text, `YYYY-MM-DD HH:MM:SS`, in a known zone. */
export type ServiceTime = {
  /** The text exactly as the service sent it. */
  text: string;
  /** The IANA zone the text is read in (PAYMENTS_TIMEZONE). */
  zone: string;
  /** Seconds since the Unix epoch. */
  epochSeconds: number;
};

export const SERVICE_TIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

const DAY_MS = 86_400_000;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** Offsets change only at whole quarter hours in every zone in use, so one reading serves 15 minutes. */
const OFFSET_BUCKET_MS = 15 * 60_000;
const knownOffsets = new Map<string, number>();

/** Offset of `zone` from UTC, in milliseconds, at the instant `epochMs` (formatToParts is slow: remembered). */
export function zoneOffsetMs(epochMs: number, zone: string): number {
  const key = `${zone}|${Math.floor(epochMs / OFFSET_BUCKET_MS)}`;
  const known = knownOffsets.get(key);
  if (known !== undefined) return known;
  const offset = readZoneOffsetMs(Math.floor(epochMs / OFFSET_BUCKET_MS) * OFFSET_BUCKET_MS, zone);
  if (knownOffsets.size >= 50_000) knownOffsets.clear();
  knownOffsets.set(key, offset);
  return offset;
}

function readZoneOffsetMs(epochMs: number, zone: string): number {
  let formatter = offsetFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    offsetFormatters.set(zone, formatter);
  }
  const parts: Record<string, number> = {};
  for (const part of formatter.formatToParts(new Date(epochMs))) {
    if (part.type !== "literal") parts[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return asUtc - Math.floor(epochMs / 1000) * 1000;
}

/**
 * Reads `YYYY-MM-DD HH:MM:SS` as wall-clock time in `zone`. Returns undefined when the text is not
 * in that form or names no real date (2024-02-30). In a DST overlap the earlier moment wins.
 */
export function parseServiceTime(text: string, zone: string): ServiceTime | undefined {
  const match = SERVICE_TIME_PATTERN.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wallAsUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(wallAsUtc);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    return undefined;
  }
  // The offsets a day either side cover both sides of any DST change. In an overlap (the clock
  // goes back) both readings are real and the earlier wins; in a gap (it jumps forward) neither is,
  // and the offset before the change is used.
  const candidates = [
    wallAsUtc - zoneOffsetMs(wallAsUtc - DAY_MS, zone),
    wallAsUtc - zoneOffsetMs(wallAsUtc + DAY_MS, zone),
  ];
  const real = candidates.filter((candidate) => candidate + zoneOffsetMs(candidate, zone) === wallAsUtc);
  const epochMs = real.length > 0 ? Math.min(...real) : (candidates[0] as number);
  return { text, zone, epochSeconds: Math.floor(epochMs / 1000) };
}
