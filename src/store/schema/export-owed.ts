import { claimTables, DEFAULT_PREFIX, KEYV_TABLE, legacyOwedNamespace, POSTGRES_TABLE } from "./names.js";
import type { SqlStep } from "./version.js";

// The schema's exports-owed step on every engine (self-contained: it may be renumbered when merged).
// Before it, each export under way was a Keyv entry (namespace legacyOwedNamespace(P), key the job
// id) {"value": {v: 1, team, user, channel, lang, title, format, ts?, beat, leaseMs}, "expires": ...},
// `beat` renewed with the export's lease. After it, the claim board's family "export-owed"
// (src/exports/owed.ts): an item per job id, due when its export would have lapsed (beat + leaseMs),
// and its state "entry", the value as written (the extra `beat` and `leaseMs` are ignored when read).
//
// Moved rather than dropped although they live at most a day: an entry is a promise to tell an asker
// whose export died, and the usual upgrade (a process killed, then the new release started within
// the minute) would otherwise leave their progress saying "Exporting..." for ever. An entry whose
// replica is still alive (a rolling upgrade) is moved too and is told "stopped" once its beat lapses:
// that replica beats into Keyv, which this release no longer reads, and is being stopped anyway
// (SIGTERM, which tells its asker first). Expired or unreadable entries are not moved; the namespace
// is emptied. The entry's strings (Slack ids, a title, a format) never start with ":", so Keyv's
// escape of such strings has nothing to take off.

const FAMILY = "export-owed";

/** The namespace's key prefix as an SQL or Lua string literal (plain names only). */
function literalPrefix(prefix: string, separator: string): string {
  const namespace = legacyOwedNamespace(prefix);
  if (!/^[A-Za-z0-9_:-]{1,80}$/.test(namespace)) throw new Error(`namespace ${namespace} is not plain`);
  return `'${namespace}${separator}'`;
}

/** SQLite: Keyv rows "<namespace>:<job id>" in the keyv table. */
export const SQLITE_MOVE_EXPORTS_OWED: SqlStep = (prefix) => {
  const { items, states } = claimTables(prefix);
  const from = literalPrefix(prefix, ":");
  const start = from.length - 1; // the literal's quotes off, plus one
  const now = "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)";
  const owed = `FROM ${KEYV_TABLE} WHERE substr(key, 1, ${start - 1}) = ${from} AND length(key) >= ${start}
      AND json_valid(value) AND json_type(value, '$.value') = 'object'
      AND json_type(value, '$.value.beat') IN ('integer', 'real')
      AND json_type(value, '$.value.leaseMs') IN ('integer', 'real')
      AND coalesce(json_extract(value, '$.expires'), ${now} + 1) > ${now}`;
  return [
    `INSERT INTO ${items} (family, key, due_at)
      SELECT '${FAMILY}', substr(key, ${start}),
        CAST(json_extract(value, '$.value.beat') + json_extract(value, '$.value.leaseMs') AS INTEGER)
      ${owed} ON CONFLICT (family, key) DO NOTHING`,
    `INSERT INTO ${states} (family, key, field, state)
      SELECT '${FAMILY}', substr(key, ${start}), 'entry', json_extract(value, '$.value')
      ${owed} ON CONFLICT (family, key, field) DO NOTHING`,
    `DELETE FROM ${KEYV_TABLE} WHERE substr(key, 1, ${start - 1}) = ${from}`,
  ];
};

/** PostgreSQL: Keyv rows "<namespace>:<job id>" in public.kassa, value text; one not JSON is skipped. */
export const POSTGRES_MOVE_EXPORTS_OWED: SqlStep = (prefix) => {
  const { items, states } = claimTables(prefix);
  const keyv = `public.${POSTGRES_TABLE}`;
  const from = literalPrefix(prefix, ":");
  const start = from.length - 1;
  return [
    `DO $move$
    DECLARE
      legacy record;
      entry jsonb;
      now_ms numeric := floor(extract(epoch FROM clock_timestamp()) * 1000);
    BEGIN
      FOR legacy IN SELECT key, value FROM ${keyv} WHERE starts_with(key, ${from}) AND length(key) >= ${start} LOOP
        BEGIN
          entry := legacy.value::jsonb;
        EXCEPTION WHEN others THEN
          entry := NULL;
        END;
        IF jsonb_typeof(entry -> 'value') = 'object'
          AND jsonb_typeof(entry -> 'value' -> 'beat') = 'number'
          AND jsonb_typeof(entry -> 'value' -> 'leaseMs') = 'number'
          -- In parentheses: PL/pgSQL ends an IF's condition at the first THEN outside them.
          AND (CASE WHEN jsonb_typeof(entry -> 'expires') = 'number'
            THEN (entry ->> 'expires')::numeric > now_ms ELSE true END) THEN
          INSERT INTO ${items} (family, key, due_at) VALUES ('${FAMILY}', substr(legacy.key, ${start}),
            floor((entry -> 'value' ->> 'beat')::numeric + (entry -> 'value' ->> 'leaseMs')::numeric)::bigint)
            ON CONFLICT (family, key) DO NOTHING;
          INSERT INTO ${states} (family, key, field, state)
            VALUES ('${FAMILY}', substr(legacy.key, ${start}), 'entry', (entry -> 'value')::text)
            ON CONFLICT (family, key, field) DO NOTHING;
        END IF;
      END LOOP;
      DELETE FROM ${keyv} WHERE starts_with(key, ${from});
    END
    $move$`,
  ];
};

/**
 * Redis (Lua, ARGV[1] the prefix P): keys "<namespace>::<job id>", each a string; the board's keys
 * under P:claims (src/store/claims/redis-scripts.ts): the item in the sorted set due:export-owed,
 * the entry in the hash s:export-owed:<job id>.
 */
export const REDIS_MOVE_EXPORTS_OWED = {
  purpose: "the exports owed to their askers move from their Keyv namespace onto the claim board (P:claims)",
  lua: `
local p = ARGV[1]
local b = p .. ':claims'
local namespace = (p == '${DEFAULT_PREFIX}' and 'exportsowed' or (p .. '-exportsowed')) .. '::'
local function glob(text) return (string.gsub(text, '([%*%?%[%]\\\\])', '\\\\%1')) end
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
for _, old in ipairs(redis.call('KEYS', glob(namespace) .. '*')) do
  local job = string.sub(old, #namespace + 1)
  local ok, data = pcall(cjson.decode, redis.call('GET', old) or '')
  if job ~= '' and ok and type(data) == 'table' and type(data.value) == 'table'
    and type(data.value.beat) == 'number' and type(data.value.leaseMs) == 'number'
    and not (type(data.expires) == 'number' and data.expires <= now) then
    local due = string.format('%.0f', math.floor(data.value.beat + data.value.leaseMs))
    redis.call('ZADD', b .. ':due:${FAMILY}', 'NX', due, job)
    redis.call('HSETNX', b .. ':s:${FAMILY}:' .. job, 'entry', cjson.encode(data.value))
  end
  redis.call('DEL', old)
end`,
};
