import { DEFAULT_PREFIX, KEYV_TABLE, tableName } from "./names.js";

// Schema step 6 on every engine: the live cards' watches of the queues before the claim board move
// onto it (src/watch/board-state.ts): each watch's schedule an item of family "watch" (key
// "<team>:<invoice>", due when it was), its data state "watch" of family "watch-data" (the Watch as
// JSON, cards inside), and each workspace's index state "index" of family "watch-team" ({"<invoice>":
// {"users": [who has a card], "at": started}}). The queue changes a state by compare-and-set of its
// text as JSON.stringify writes it, so each state is written in that form: compact, the engine's
// own JSON output is not (PostgreSQL's jsonb has spaces, Redis's cjson writes "\/" and rounds
// numbers). A claim in flight is not kept (its lease lapses anyway); read slots start afresh.

/** The watch's key in the data family, the schedule and the old layouts alike. */
const FAMILIES = { schedule: "'watch'", data: "'watch-data'", team: "'watch-team'" };

/**
 * SQLite: the Keyv namespace "watches" (the store's own, so under the default prefix only), entries
 * {"value": {"watch": {...}, "dueAt": n}} written by JSON.stringify, a string starting with ":"
 * given one more (Keyv's escape), taken off here: every `"::` whose quote is a real one.
 */
export function sqliteWatchesMove(prefix: string): string[] {
  if (prefix !== DEFAULT_PREFIX) return [];
  const [items, states] = [tableName(prefix, "claim_items"), tableName(prefix, "claim_states")];
  const from = "watches:";
  // Escaped backslashes, then escaped quotes, out of the way (control characters never stand raw in
  // JSON text), so each quote left is real.
  const unescaped = `replace(replace(replace(replace(replace(value, '\\\\', char(1)), '\\"', char(2)),
    '"::', '":'), char(2), '\\"'), char(1), '\\\\')`;
  const legacy = `(SELECT substr(key, ${from.length + 1}) AS key, json_extract(entry, '$.value.watch') AS watch,
      json_extract(entry, '$.value.dueAt') AS due_at
    FROM (SELECT key, ${unescaped} AS entry FROM ${KEYV_TABLE} WHERE substr(key, 1, ${from.length}) = '${from}')
    WHERE json_valid(entry) AND json_type(entry, '$.value.watch') = 'object'
      AND json_type(entry, '$.value.dueAt') IN ('integer', 'real'))`;
  const users = `(SELECT json_group_array(DISTINCT json_extract(c.value, '$.user')) FROM json_each(w.watch, '$.cards') c
    WHERE json_type(c.value, '$.user') = 'text')`;
  return [
    `INSERT INTO ${states} (family, key, field, state)
      SELECT ${FAMILIES.data}, key, 'watch', json_remove(watch, '$.lease') FROM ${legacy} WHERE true
      ON CONFLICT (family, key, field) DO NOTHING`,
    `INSERT INTO ${items} (family, key, due_at)
      SELECT ${FAMILIES.schedule}, key, CAST(due_at AS INTEGER) FROM ${legacy} WHERE true
      ON CONFLICT (family, key) DO NOTHING`,
    `INSERT INTO ${states} (family, key, field, state)
      SELECT ${FAMILIES.team}, json_extract(w.watch, '$.team'), 'index',
        json_group_object(json_extract(w.watch, '$.invoiceId'),
          json_object('users', json(${users}), 'at', json_extract(w.watch, '$.startedAt')))
      FROM ${legacy} w WHERE json_type(w.watch, '$.team') = 'text' AND json_type(w.watch, '$.invoiceId') = 'text'
      GROUP BY json_extract(w.watch, '$.team')
      ON CONFLICT (family, key, field) DO NOTHING`,
    `DELETE FROM ${KEYV_TABLE} WHERE substr(key, 1, ${from.length}) = '${from}'`,
  ];
}

/**
 * PostgreSQL: the tables P_watches and P_watch_cards (jsonb card and invoice columns), dropped with
 * P_watch_next_read afterwards. A jsonb value is written as JSON.stringify would by a function of
 * the step's own session (pg_temp), gone with the session.
 */
export function postgresWatchesMove(prefix: string): string[] {
  const [items, states] = [tableName(prefix, "claim_items"), tableName(prefix, "claim_states")];
  const [watches, cards] = [tableName(prefix, "watches"), tableName(prefix, "watch_cards")];
  const text = "pg_temp.kassa_json_text";
  const quoted = (column: string) => `to_jsonb(${column})::text`;
  const cardsOf = `coalesce((SELECT string_agg(${text}(c.card), ',' ORDER BY c.card_id) FROM ${cards} c
    WHERE c.watch_key = w.key), '')`;
  const data = `'{"team":' || ${quoted("w.team")} || ',"invoiceId":' || ${quoted("w.invoice_id")}
    || ',"register":' || ${quoted("w.register")} || ',"state":' || ${quoted("w.state")}
    || ',"amounts":' || ${quoted("w.amounts")} || ',"invoice":' || ${text}(w.invoice)
    || ',"startedAt":' || w.started_at || ',"intervalMs":' || w.interval_ms
    || ',"lastCheckedAt":' || w.last_checked_at || ',"cardsUpdatedAt":' || w.cards_updated_at
    || ',"cards":[' || ${cardsOf} || ']}'`;
  const users = `coalesce((SELECT string_agg(DISTINCT ${quoted("c.card ->> 'user'")}, ',') FROM ${cards} c
    WHERE c.watch_key = w.key AND jsonb_typeof(c.card -> 'user') = 'string'), '')`;
  return [
    `CREATE OR REPLACE FUNCTION ${text}(j jsonb) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $fn$
    BEGIN
      CASE jsonb_typeof(j)
        WHEN 'object' THEN RETURN '{' || coalesce((SELECT string_agg(to_jsonb(k)::text || ':' || ${text}(v), ',')
          FROM jsonb_each(j) AS e(k, v)), '') || '}';
        WHEN 'array' THEN RETURN '[' || coalesce((SELECT string_agg(${text}(v), ',' ORDER BY n)
          FROM jsonb_array_elements(j) WITH ORDINALITY AS a(v, n)), '') || ']';
        ELSE RETURN j::text;
      END CASE;
    END $fn$`,
    `INSERT INTO ${states} (family, key, field, state)
      SELECT ${FAMILIES.data}, w.key, 'watch', ${data} FROM ${watches} w
      ON CONFLICT (family, key, field) DO NOTHING`,
    `INSERT INTO ${items} (family, key, due_at)
      SELECT ${FAMILIES.schedule}, key, LEAST(due_at, COALESCE(nudged_at, due_at)) FROM ${watches}
      ON CONFLICT (family, key) DO NOTHING`,
    `INSERT INTO ${states} (family, key, field, state)
      SELECT ${FAMILIES.team}, w.team, 'index', '{' || string_agg(${quoted("w.invoice_id")}
        || ':{"users":[' || ${users} || '],"at":' || w.started_at || '}', ',') || '}'
      FROM ${watches} w GROUP BY w.team
      ON CONFLICT (family, key, field) DO NOTHING`,
    `DROP TABLE IF EXISTS ${cards}, ${watches}, ${tableName(prefix, "watch_next_read")}`,
  ];
}

/**
 * Redis (Lua, ARGV[1] the prefix P): the keys under P:watch (P:watch:due sorted set of watch keys,
 * P:watch:w:<key> hash of fields, P:watch:c:<key> hash of card JSON texts by card id, P:watch:team:<team>
 * sets, P:watch:next-read:<register>), all deleted afterwards. The invoice and the cards are
 * JSON.stringify's text already; strings and numbers are written here as it writes them.
 */
export const REDIS_WATCHES_MOVE = String.raw`
local old = ARGV[1] .. ':watch'
local b = ARGV[1] .. ':claims'
local function glob(text) return (string.gsub(text, '([%*%?%[%]\\])', '\\%1')) end
local escapes = { ['"'] = '\\"', ['\\'] = '\\\\', ['\b'] = '\\b', ['\f'] = '\\f', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
local function quote(text)
  return '"' .. (string.gsub(text, '[%z\1-\31"\\]', function(c) return escapes[c] or string.format('\\u%04x', string.byte(c)) end)) .. '"'
end
local function int(text) return type(text) == 'string' and string.match(text, '^%-?%d+$') ~= nil end
local indexes, order = {}, {}
local due = redis.call('ZRANGE', old .. ':due', 0, -1, 'WITHSCORES')
for i = 1, #due, 2 do
  local key, score = due[i], due[i + 1]
  local flat = redis.call('HGETALL', old .. ':w:' .. key)
  local h = {}
  for j = 1, #flat, 2 do h[flat[j]] = flat[j + 1] end
  local cards = redis.call('HVALS', old .. ':c:' .. key)
  if h.team and h.invoiceId and h.register and h.state and h.amounts and h.invoice and int(h.startedAt)
    and int(h.intervalMs) and int(h.lastCheckedAt) and int(h.cardsUpdatedAt) and #cards > 0 then
    local users, seen = {}, {}
    for _, card in ipairs(cards) do
      local ok, parsed = pcall(cjson.decode, card)
      if ok and type(parsed) == 'table' and type(parsed.user) == 'string' and not seen[parsed.user] then
        seen[parsed.user] = true
        users[#users + 1] = quote(parsed.user)
      end
    end
    local state = '{"team":' .. quote(h.team) .. ',"invoiceId":' .. quote(h.invoiceId) .. ',"register":' .. quote(h.register)
      .. ',"state":' .. quote(h.state) .. ',"amounts":' .. quote(h.amounts) .. ',"invoice":' .. h.invoice
      .. ',"startedAt":' .. h.startedAt .. ',"intervalMs":' .. h.intervalMs .. ',"lastCheckedAt":' .. h.lastCheckedAt
      .. ',"cardsUpdatedAt":' .. h.cardsUpdatedAt .. ',"cards":[' .. table.concat(cards, ',') .. ']}'
    redis.call('HSETNX', b .. ':s:watch-data:' .. key, 'watch', state)
    if int(h.nudgedAt) and tonumber(h.nudgedAt) < tonumber(score) then score = h.nudgedAt end
    redis.call('ZADD', b .. ':due:watch', 'NX', score, key)
    if not indexes[h.team] then
      indexes[h.team] = {}
      order[#order + 1] = h.team
    end
    local entries = indexes[h.team]
    entries[#entries + 1] = quote(h.invoiceId) .. ':{"users":[' .. table.concat(users, ',') .. '],"at":' .. h.startedAt .. '}'
  end
end
for _, team in ipairs(order) do
  redis.call('HSETNX', b .. ':s:watch-team:' .. team, 'index', '{' .. table.concat(indexes[team], ',') .. '}')
end
for _, key in ipairs(redis.call('KEYS', glob(old) .. ':*')) do redis.call('DEL', key) end`;
