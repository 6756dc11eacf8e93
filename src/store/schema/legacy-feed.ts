import { KEYV_TABLE, POSTGRES_TABLE, tableName } from "./names.js";

// Schema step 4 on every engine: the feed's channel states kept in Keyv before the feed ledger
// (namespace "feedstate", key "<team>:<channel>") move onto the claim board (family "feed", key the
// team, field the channel), so the feed reads one place. Keyv wrote each value as
// {"value":<state>} (an "expires" beside it only with a time to live, which these never had), every
// string starting with ":" given one more ":" (its serializer's escape), which the move takes off.
// A state already on the board is the newer and stays. A state written before states noted their
// subscription has no `since`: it takes its subscription's, as the feed did when it read one. A
// channel no longer subscribed loses its state (a new subscription starts afresh anyway).

/** The Keyv namespaces the step reads: the store's own (its default prefix); tests name their own. */
export type LegacyFeedNamespaces = { states: string; subscriptions: string };
export const LEGACY_FEED_NAMESPACES: LegacyFeedNamespaces = {
  states: "feedstate",
  subscriptions: "feedsubs",
};

/** A namespace as an SQL or Lua string literal (plain names only: nothing to escape). */
function literal(name: string): string {
  if (!/^[A-Za-z0-9_-]{1,60}$/.test(name)) throw new Error(`namespace ${JSON.stringify(name)} is not plain`);
  return `'${name}'`;
}

/** SQLite: json_tree finds each escaped string and json_set puts it back, one at a time (a recursive fold). */
export function sqliteLegacyFeedMove(prefix: string, namespaces: LegacyFeedNamespaces): string[] {
  const states = tableName(prefix, "claim_states");
  const from = `${namespaces.states}:`;
  const start = from.length + 1;
  return [
    `INSERT INTO ${states} (family, key, field, state)
      WITH RECURSIVE legacy AS (
        SELECT key AS row_key, substr(key, ${start}) AS rest,
          CASE WHEN json_valid(value) AND json_type(value, '$.value') = 'object'
            AND coalesce(json_type(value, '$.expires'), 'null') = 'null' THEN json_extract(value, '$.value') END AS state
        FROM ${KEYV_TABLE} WHERE substr(key, 1, ${from.length}) = ${literal(namespaces.states)} || ':'
      ),
      owned AS (
        SELECT row_key, substr(rest, 1, instr(rest, ':') - 1) AS team,
          substr(rest, instr(rest, ':') + 1) AS channel, state
        FROM legacy WHERE state IS NOT NULL AND instr(rest, ':') > 1
      ),
      escaped AS (
        SELECT o.row_key, t.fullkey AS path, substr(t.atom, 2) AS text,
          row_number() OVER (PARTITION BY o.row_key ORDER BY t.id) AS n
        FROM owned o, json_tree(o.state) t WHERE t.type = 'text' AND substr(t.atom, 1, 1) = ':'
      ),
      unescaped (row_key, n, state) AS (
        SELECT row_key, 0, state FROM owned
        UNION ALL
        SELECT u.row_key, u.n + 1, json_set(u.state, e.path, e.text)
        FROM unescaped u JOIN escaped e ON e.row_key = u.row_key AND e.n = u.n + 1
      ),
      moved AS (
        SELECT o.team, o.channel, u.state, (
          SELECT json_extract(c.value, '$.since') FROM ${KEYV_TABLE} s, json_each(s.value, '$.value.channels') c
          WHERE s.key = ${literal(namespaces.subscriptions)} || ':' || o.team AND json_valid(s.value)
            AND json_extract(c.value, '$.channel') = o.channel) AS since
        FROM owned o JOIN unescaped u ON u.row_key = o.row_key
        WHERE u.n = (SELECT count(*) FROM escaped e WHERE e.row_key = o.row_key)
      )
      SELECT 'feed', team, channel,
        CASE WHEN json_type(state, '$.since') IS NULL THEN json_set(state, '$.since', since) ELSE state END
      FROM moved WHERE since IS NOT NULL
      ON CONFLICT (family, key, field) DO NOTHING`,
    `DELETE FROM ${KEYV_TABLE} WHERE substr(key, 1, ${from.length}) = ${literal(namespaces.states)} || ':'`,
  ];
}

/**
 * PostgreSQL: the escape is taken off the text. A real quote (one after an even run of backslashes)
 * followed by "::" opens an escaped string: a closing quote is followed by , ] } or :, never "::".
 */
export function postgresLegacyFeedMove(prefix: string, namespaces: LegacyFeedNamespaces): string[] {
  const states = tableName(prefix, "claim_states");
  const keyv = `public.${POSTGRES_TABLE}`;
  const from = `${namespaces.states}:`;
  return [
    `INSERT INTO ${states} (family, key, field, state)
      WITH legacy AS (
        SELECT split_part(substr(key, ${from.length + 1}), ':', 1) AS team,
          substr(key, ${from.length + 1} + strpos(substr(key, ${from.length + 1}), ':')) AS channel,
          regexp_replace(value, '((?:^|[^\\\\])(?:\\\\\\\\)*)"::', '\\1":', 'g')::jsonb AS entry
        FROM ${keyv} WHERE starts_with(key, ${literal(namespaces.states)} || ':')
      ),
      moved AS (
        SELECT l.team, l.channel, l.entry -> 'value' AS state, (
          SELECT c -> 'since' FROM ${keyv} s, jsonb_array_elements(s.value::jsonb -> 'value' -> 'channels') c
          WHERE s.key = ${literal(namespaces.subscriptions)} || ':' || l.team AND c ->> 'channel' = l.channel
          LIMIT 1) AS since
        FROM legacy l
        WHERE l.team <> '' AND jsonb_typeof(l.entry -> 'value') = 'object'
          AND coalesce(jsonb_typeof(l.entry -> 'expires'), 'null') = 'null'
      )
      SELECT 'feed', team, channel,
        (CASE WHEN state ? 'since' THEN state ELSE jsonb_set(state, '{since}', since) END)::text
      FROM moved WHERE since IS NOT NULL
      ON CONFLICT (family, key, field) DO NOTHING`,
    `DELETE FROM ${keyv} WHERE starts_with(key, ${literal(namespaces.states)} || ':')`,
  ];
}

/**
 * Redis (Lua, ARGV[1] the prefix P): keys "<namespace>::<team>:<channel>", each a string; the board's
 * states are hashes P:claims:s:feed:<team>, field the channel. The state's text is kept as written
 * (cjson would turn an empty list into an object): only read through cjson, its escapes taken off and
 * `since` put in front as text.
 */
export function redisLegacyFeedMove(namespaces: LegacyFeedNamespaces): string {
  return `
local states_at = ${literal(namespaces.states)} .. '::'
local subscriptions_at = ${literal(namespaces.subscriptions)} .. '::'
local board = ARGV[1] .. ':claims:s:feed:'
local function glob(text) return (string.gsub(text, '([%*%?%[%]\\\\])', '\\\\%1')) end
local function unescape(text)
  local out, from = {}, 1
  while true do
    local at = string.find(text, '"::', from, true)
    if not at then break end
    local slashes = 0
    while at - slashes - 1 >= 1 and string.sub(text, at - slashes - 1, at - slashes - 1) == '\\\\' do
      slashes = slashes + 1
    end
    -- A real quote (after an even run of backslashes) keeps one ":" of the two; one inside a string both.
    table.insert(out, string.sub(text, from, slashes % 2 == 0 and at + 1 or at + 2))
    from = at + 3
  end
  table.insert(out, string.sub(text, from))
  return table.concat(out)
end
local function subscribed_since(team, channel)
  local raw = redis.call('GET', subscriptions_at .. team)
  if not raw then return nil end
  local ok, entry = pcall(cjson.decode, raw)
  if not ok or type(entry) ~= 'table' or type(entry.value) ~= 'table' or type(entry.value.channels) ~= 'table' then return nil end
  for _, subscription in ipairs(entry.value.channels) do
    if type(subscription) == 'table' and subscription.channel == channel and type(subscription.since) == 'number' then
      return string.format('%.0f', subscription.since)
    end
  end
  return nil
end
for _, old in ipairs(redis.call('KEYS', glob(states_at) .. '*')) do
  local rest = string.sub(old, #states_at + 1)
  local colon = string.find(rest, ':', 1, true)
  local raw = redis.call('GET', old)
  local ok, entry = pcall(cjson.decode, raw or '')
  local inner = raw and string.match(raw, '^{"value":(.*)}$')
  if colon and colon > 1 and inner and ok and type(entry) == 'table' and type(entry.value) == 'table'
    and (entry.expires == nil or entry.expires == cjson.null) then
    inner = string.gsub(inner, ',"expires":null$', '')
    local team, channel = string.sub(rest, 1, colon - 1), string.sub(rest, colon + 1)
    local since = subscribed_since(team, channel)
    if since and redis.call('HEXISTS', board .. team, channel) == 0 then
      local state = unescape(inner)
      if entry.value.since == nil then
        state = (state == '{}') and ('{"since":' .. since .. '}') or ('{"since":' .. since .. ',' .. string.sub(state, 2))
      end
      redis.call('HSET', board .. team, channel, state)
    end
  end
  redis.call('DEL', old)
end`;
}
