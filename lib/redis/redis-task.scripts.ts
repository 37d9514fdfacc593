// The Lua scripts of RedisTaskStore. Each change of a task is one script, so that two
// instances racing (complete on one, cancel on the other) end in exactly one final state,
// and an expired task is removed, and announced, by exactly one sweep.
//
// Layout (P = keyPrefix): `P task:<id>` a hash of JSON fields, plus `q:<key>` (a pending
// question), `a:<key>` (an answer) and `_`-fields the store reads only itself;
// `P owner:<owner>` a sorted set (all scores 0) of `<inverted createdAt>:<id>`, so that
// lexical order is newest first with ties by id; `P index` id → `[owner, ownerMember,
// finishedMember]`, for cleaning up after a hash Redis already expired; `P expiry` id by
// expiry time; `P finished` `<creation number>:<id>` by the time it finished (maxTasks
// eviction); `P sequence` the creation counter, so that ties go by creation order.
//
// Scripts read keys derived from the prefix and the id besides their KEYS: like the rest
// of the integration they need one Redis (or one slot: put a hash tag in keyPrefix).
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { RedisUnavailableError } from './redis-unavailable.error.js';

/** A Lua script with its SHA1, run by EVALSHA (EVAL when the server does not know it). */
export interface TaskScript {
  readonly source: string;
  readonly sha: string;
}

const script = (body: string): TaskScript => {
  const source = HELPERS + body;
  return { source, sha: createHash('sha1').update(source).digest('hex') };
};

// The id follows the 15-digit time and its colon in both sorted sets.
const HELPERS = `
local function isFinal(status)
  return status == '"completed"' or status == '"failed"' or status == '"cancelled"'
end

local function isLive(key, now)
  if redis.call('EXISTS', key) == 0 then return false end
  local expiresAt = redis.call('HGET', key, '_expiresAt')
  return (not expiresAt) or tonumber(now) < tonumber(expiresAt)
end

local function idOf(member) return string.sub(member, 17) end

local function hasField(key, prefix)
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if string.sub(field, 1, #prefix) == prefix then return true end
  end
  return false
end

-- mode '1': the questions go; mode '2': the answers too (a new round, or a final status)
local function clearInput(key, mode)
  if mode == '0' then return end
  for _, field in ipairs(redis.call('HKEYS', key)) do
    local kind = string.sub(field, 1, 2)
    if kind == 'q:' or (mode == '2' and kind == 'a:') then redis.call('HDEL', key, field) end
  end
  redis.call('HDEL', key, 'inputOrder')
  if mode == '2' then redis.call('HDEL', key, 'inputRound') end
end

-- Removes a task and every index entry; true only for the call that removed it.
local function removeTask(prefix, index, expiry, finished, taskId)
  local entry = redis.call('HGET', index, taskId)
  redis.call('DEL', prefix .. 'task:' .. taskId)
  redis.call('ZREM', expiry, taskId)
  if not entry then return false end
  local parts = cjson.decode(entry)
  redis.call('ZREM', prefix .. 'owner:' .. parts[1], parts[2])
  redis.call('ZREM', finished, parts[3])
  redis.call('HDEL', index, taskId)
  return true
end

-- The removed ids in the order the tasks were created (as the in-memory store sweeps).
local function sweep(prefix, index, expiry, finished, now, limit)
  local removed = {}
  local ids = redis.call('ZRANGEBYSCORE', expiry, '-inf', now, 'LIMIT', 0, limit)
  for _, taskId in ipairs(ids) do
    local entry = redis.call('HGET', index, taskId)
    if removeTask(prefix, index, expiry, finished, taskId) then
      table.insert(removed, cjson.decode(entry)[3])
    end
  end
  table.sort(removed)
  for i, member in ipairs(removed) do removed[i] = idOf(member) end
  return removed
end
`;

/**
 * KEYS: task, owner set, expiry, index, finished, sequence. ARGV: now, prefix, taskId,
 * owner, owner member, expiresAt or '', PEXPIRE ms or '', maxTasks or '', then field/value pairs.
 * Replies `{'exists'}`, `{'full', count}` or `{'created', removedIds}`.
 */
export const CREATE_SCRIPT = script(`
local now, prefix, taskId = ARGV[1], ARGV[2], ARGV[3]
local removed = {}
if redis.call('HEXISTS', KEYS[4], taskId) == 1 or redis.call('EXISTS', KEYS[1]) == 1 then
  if isLive(KEYS[1], now) then return {'exists'} end
  if removeTask(prefix, KEYS[4], KEYS[3], KEYS[5], taskId) then table.insert(removed, taskId) end
end
if ARGV[8] ~= '' then
  local max = tonumber(ARGV[8])
  if redis.call('HLEN', KEYS[4]) >= max then
    for _, id in ipairs(sweep(prefix, KEYS[4], KEYS[3], KEYS[5], now, -1)) do
      table.insert(removed, id)
    end
  end
  if redis.call('HLEN', KEYS[4]) >= max then
    local oldest = redis.call('ZRANGE', KEYS[5], 0, 0)[1]
    if not oldest then return {'full', redis.call('HLEN', KEYS[4])} end
    if removeTask(prefix, KEYS[4], KEYS[3], KEYS[5], idOf(oldest)) then
      table.insert(removed, idOf(oldest))
    end
  end
end
for i = 9, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
if ARGV[6] ~= '' then
  redis.call('PEXPIRE', KEYS[1], ARGV[7])
  redis.call('ZADD', KEYS[3], ARGV[6], taskId)
end
redis.call('ZADD', KEYS[2], 0, ARGV[5])
local finishedMember = string.format('%015d', redis.call('INCR', KEYS[6])) .. ':' .. taskId
redis.call('HSET', KEYS[1], '_finishedMember', finishedMember)
redis.call('HSET', KEYS[4], taskId, cjson.encode({ARGV[4], ARGV[5], finishedMember}))
return {'created', removed}
`);

/**
 * KEYS: task, finished. ARGV: now, lastUpdatedAt (JSON), final ('1'/'0'), clear mode
 * ('0'/'1'/'2'), the number of pairs to set, the pairs, then the fields to delete.
 * Replies `{'missing'}`, `{'final', hash}` (unchanged) or `{'changed', hash}`.
 */
export const TRANSITION_SCRIPT = script(`
local key = KEYS[1]
if not isLive(key, ARGV[1]) then return {'missing'} end
if isFinal(redis.call('HGET', key, 'status')) then return {'final', redis.call('HGETALL', key)} end
clearInput(key, ARGV[4])
local count = tonumber(ARGV[5])
for i = 6, 5 + 2 * count, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
for i = 6 + 2 * count, #ARGV do redis.call('HDEL', key, ARGV[i]) end
redis.call('HSET', key, 'lastUpdatedAt', ARGV[2])
if ARGV[3] == '1' then
  redis.call('ZADD', KEYS[2], ARGV[1], redis.call('HGET', key, '_finishedMember'))
end
return {'changed', redis.call('HGETALL', key)}
`);

/**
 * Answers pending questions only; the call that answers the last one flips the task to
 * working and is told so (it alone emits `input-complete`). KEYS: task. ARGV: now,
 * lastUpdatedAt (JSON), then key/answer pairs. Replies `{'missing'}`,
 * `{'unchanged', hash}` or `{'changed', hash, complete}`.
 */
export const RESOLVE_INPUT_SCRIPT = script(`
local key = KEYS[1]
if not isLive(key, ARGV[1]) then return {'missing'} end
if redis.call('HGET', key, 'status') ~= '"input_required"' then
  return {'unchanged', redis.call('HGETALL', key)}
end
local accepted = 0
for i = 3, #ARGV, 2 do
  if redis.call('HDEL', key, 'q:' .. ARGV[i]) == 1 then
    redis.call('HSET', key, 'a:' .. ARGV[i], ARGV[i + 1])
    accepted = accepted + 1
  end
end
if accepted == 0 then return {'unchanged', redis.call('HGETALL', key)} end
local complete = 0
if not hasField(key, 'q:') then
  complete = 1
  redis.call('HSET', key, 'status', '"working"')
  redis.call('HDEL', key, 'inputOrder')
end
redis.call('HSET', key, 'lastUpdatedAt', ARGV[2])
return {'changed', redis.call('HGETALL', key), complete}
`);

/**
 * Up to `count` live tasks of one owner from a position on, newest first. KEYS: owner
 * set. ARGV: now, prefix, the lexical start ('-' or '(member'), count. Replies
 * `{{member, hash}, ...}`; tasks expired but not yet swept are skipped.
 */
export const LIST_SCRIPT = script(`
local now, prefix, start, wanted = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local found = {}
while #found < wanted do
  local members = redis.call('ZRANGEBYLEX', KEYS[1], start, '+', 'LIMIT', 0, wanted)
  if #members == 0 then break end
  for _, member in ipairs(members) do
    local key = prefix .. 'task:' .. idOf(member)
    if isLive(key, now) then
      table.insert(found, {member, redis.call('HGETALL', key)})
      if #found == wanted then break end
    end
  end
  start = '(' .. members[#members]
end
return found
`);

/** KEYS: index, expiry, finished. ARGV: now, prefix, batch size. Replies the removed ids. */
export const SWEEP_SCRIPT = script(`
return sweep(ARGV[2], KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[3])
`);

/**
 * What a rejected call says when Redis cannot be reached: the protocol layer shows it as
 * the JSON-RPC error. A reply error (a script bug, a wrong key type) is passed on as it is.
 */
export function redisUnavailable(error: unknown): Error {
  if (error instanceof Error && error.name === 'ReplyError') return error;
  return new RedisUnavailableError(error, 'the MCP task store');
}

/** Runs a script by its SHA, loading it with EVAL the first time a server sees it. */
export async function runScript(
  client: Redis,
  { source, sha }: TaskScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  try {
    try {
      return await client.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return await client.eval(source, keys.length, ...keys, ...args);
    }
  } catch (error) {
    throw redisUnavailable(error);
  }
}
