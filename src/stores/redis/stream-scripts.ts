/**
 * The two writes to a run's stream. Each is one Lua script so that reading the previous entry's
 * id (for `prev`), appending with an exact MAXLEN trim, and refreshing the TTL of the stream and
 * of its producer-lease hash happen atomically: no reader ever sees an entry without its TTL, and
 * two producers cannot interleave between "read last" and "append".
 *
 * Both also carry the stream's epoch forward: the newest entry's `epoch`, or — when the stream
 * has no entry (new, or lost by Redis) — the fresh candidate the caller passes, which starts a new
 * incarnation.
 *
 * KEYS[1] = stream, KEYS[2] = producer-lease hash; ARGV[1] = MAXLEN, ARGV[2] = TTL seconds (0 = none).
 *
 * The fenced forms add KEYS[3] = the stream's writer (the worker id whose publishes it accepts).
 * `cleanup` leaves that key to its TTL, so a writer fenced out stays fenced out after the stream
 * itself was dropped.
 */
import { LuaScript } from "./lua-script.js";

/** Sets `newest`, `prev` and `epoch`; ARGV[epochArg] is the candidate epoch for a new stream. */
function previousEntry(epochArg: number): string {
  return `
local newest = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local prev = '0-0'
local epoch = ARGV[${epochArg}]
if newest[1] then
  prev = newest[1][1]
  local fields = newest[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'epoch' then epoch = fields[i + 1] end
  end
end
`;
}

const REFRESH_TTL = `
local ttl = tonumber(ARGV[2])
if ttl > 0 then
  redis.call('EXPIRE', KEYS[1], ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
end
`;

/**
 * ARGV[3] = event name, ARGV[4] = JSON data, ARGV[5] = candidate epoch. Returns
 * {new entry's id, the stream's epoch}.
 */
export const PUBLISH_EVENT = new LuaScript(
  `${previousEntry(5)}
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*',
  'kind', 'event', 'event', ARGV[3], 'data', ARGV[4], 'prev', prev, 'epoch', epoch)
${REFRESH_TTL}
return {id, epoch}`,
  2,
);

const NEWEST_IS_END = `
local ended = false
if newest[1] then
  local fields = newest[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'kind' and fields[i + 1] == 'end' then ended = true end
  end
end
`;

/** A week: how long a writer key lives when streams have no TTL. */
const WRITER_TTL_FALLBACK_SECONDS = 604_800;

/** ARGV[n] = the writer's worker id: KEYS[3] names it from now on. */
function claimWriter(n: number): string {
  return `
redis.call('SET', KEYS[3], ARGV[${n}])
local writerTtl = tonumber(ARGV[2])
if writerTtl <= 0 then writerTtl = ${WRITER_TTL_FALLBACK_SECONDS} end
redis.call('EXPIRE', KEYS[3], writerTtl)
`;
}

/**
 * ARGV[3] = event name, ARGV[4] = JSON data, ARGV[5] = the writer's worker id, ARGV[6] = candidate
 * epoch. Returns {new entry's id, the stream's epoch}, or 0 (nothing appended) once the stream
 * ended or KEYS[3] names another writer.
 */
export const PUBLISH_FENCED_EVENT = new LuaScript(
  `${previousEntry(6)}${NEWEST_IS_END}
if ended then return 0 end
local writer = redis.call('GET', KEYS[3])
if writer and writer ~= ARGV[5] then return 0 end
${claimWriter(5)}
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*',
  'kind', 'event', 'event', ARGV[3], 'data', ARGV[4], 'prev', prev, 'epoch', epoch)
${REFRESH_TTL}
return {id, epoch}`,
  3,
);

/**
 * As PUBLISH_END, and ARGV[3] (the ending worker) becomes the writer with the end marker.
 * ARGV[4] = candidate epoch.
 */
export const PUBLISH_FENCED_END = new LuaScript(
  `${previousEntry(4)}${NEWEST_IS_END}
if ended then return prev end
${claimWriter(3)}
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*',
  'kind', 'end', 'prev', prev, 'epoch', epoch)
${REFRESH_TTL}
return id`,
  3,
);

/**
 * Appends the end marker unless the newest entry already is one (idempotent, also across
 * processes). The caller passes MAXLEN = window + 1 so the marker never evicts an event.
 * ARGV[3] = candidate epoch.
 */
export const PUBLISH_END = new LuaScript(
  `${previousEntry(3)}
if newest[1] then
  local fields = newest[1][2]
  for i = 1, #fields, 2 do
    if fields[i] == 'kind' and fields[i + 1] == 'end' then return prev end
  end
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', ARGV[1], '*',
  'kind', 'end', 'prev', prev, 'epoch', epoch)
${REFRESH_TTL}
return id`,
  2,
);
