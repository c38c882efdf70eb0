/**
 * The Lua scripts behind every multi-step operation of RedisKvStore. Each runs atomically on the
 * server (registered with defineCommand, so called by EVALSHA). Time comes from the server's
 * TIME, never from the caller, so that every replica of a service sees one clock.
 * Integers stay exact: redis.call passes numbers on with '%.17g' (never use '..' on a large
 * number, which formats with '%.14g'). Requires Redis 5 or newer (writes after TIME need effect
 * replication).
 */

export interface ScriptDefinition {
  numberOfKeys: number;
  lua: string;
}

const SERVER_NOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/** KEYS[1] value. Returns the value (or nil) and deletes it. */
const take: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `
local value = redis.call('GET', KEYS[1])
if value then redis.call('DEL', KEYS[1]) end
return value
`,
};

/** KEYS[1] counter; ARGV by, ttlMs. The TTL is set only when this call creates the counter. */
const incr: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `
local created = redis.call('EXISTS', KEYS[1]) == 0
local value = redis.call('INCRBY', KEYS[1], ARGV[1])
if created then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value
`,
};

/**
 * KEYS[1] sorted set of accepted hits (score = time in ms); ARGV limit, windowMs.
 * Returns {allowed 0|1, remaining, retryAfterMs}. Refused hits are not recorded.
 */
const hit: ScriptDefinition = {
  numberOfKeys: 1,
  lua: `${SERVER_NOW}
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  -- The hit whose departure brings the count below the limit (the oldest when count == limit).
  local blocking = redis.call('ZRANGE', KEYS[1], count - limit, count - limit, 'WITHSCORES')
  return {0, 0, tonumber(blocking[2]) + window - now}
end
local base = time[1] .. string.format('%06d', tonumber(time[2]))
local member, suffix = base, 0
while redis.call('ZSCORE', KEYS[1], member) do
  suffix = suffix + 1
  member = base .. '-' .. suffix
end
redis.call('ZADD', KEYS[1], now, member)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, limit - count - 1, 0}
`,
};

/**
 * Shared head of the quota scripts. KEYS[1] sorted set (member = reservation id, score = expiry
 * in ms), KEYS[2] hash (id -> amount), KEYS[3] running total of the hash's amounts.
 * purge() drops what has expired and returns the outstanding total; persist(total) stores the
 * total and gives all three keys the expiry of the latest entry, or deletes them when empty.
 */
const QUOTA_HEAD = `${SERVER_NOW}
local EXPIRY, AMOUNT, TOTAL = KEYS[1], KEYS[2], KEYS[3]
local BATCH = 1000

local function purge()
  local total = tonumber(redis.call('GET', TOTAL)) or 0
  local expired = redis.call('ZRANGEBYSCORE', EXPIRY, '-inf', now)
  for first = 1, #expired, BATCH do
    local ids = {unpack(expired, first, math.min(first + BATCH - 1, #expired))}
    for _, amount in ipairs(redis.call('HMGET', AMOUNT, unpack(ids))) do
      total = total - (tonumber(amount) or 0)
    end
    redis.call('HDEL', AMOUNT, unpack(ids))
  end
  if #expired > 0 then redis.call('ZREMRANGEBYSCORE', EXPIRY, '-inf', now) end
  return total
end

local function persist(total)
  local latest = redis.call('ZRANGE', EXPIRY, -1, -1, 'WITHSCORES')
  if #latest == 0 then
    redis.call('DEL', EXPIRY, AMOUNT, TOTAL)
    return
  end
  redis.call('SET', TOTAL, total)
  redis.call('PEXPIREAT', EXPIRY, latest[2])
  redis.call('PEXPIREAT', AMOUNT, latest[2])
  redis.call('PEXPIREAT', TOTAL, latest[2])
end
`;

/** ARGV id, amount, available, ttlMs. Returns {ok 0|1, outstanding}. */
const reserve: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `${QUOTA_HEAD}
local id, amount, available, ttl = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local total = purge()
if redis.call('HEXISTS', AMOUNT, id) == 1 then
  persist(total)
  return {1, total}
end
if total + amount > available then
  persist(total)
  return {0, total}
end
redis.call('ZADD', EXPIRY, now + ttl, id)
redis.call('HSET', AMOUNT, id, amount)
total = total + amount
persist(total)
return {1, total}
`,
};

/** ARGV id, actualAmount, holdMs. Returns 1 when the reservation existed, else 0. */
const settle: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `${QUOTA_HEAD}
local id, actual, hold = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local total = purge()
local previous = tonumber(redis.call('HGET', AMOUNT, id))
if not previous then
  persist(total)
  return 0
end
if hold > 0 then
  redis.call('ZADD', EXPIRY, now + hold, id)
  redis.call('HSET', AMOUNT, id, actual)
  total = total - previous + actual
else
  redis.call('ZREM', EXPIRY, id)
  redis.call('HDEL', AMOUNT, id)
  total = total - previous
end
persist(total)
return 1
`,
};

/** ARGV id. Drops the reservation or hold if it is there. */
const release: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `${QUOTA_HEAD}
local id = ARGV[1]
local total = purge()
local previous = tonumber(redis.call('HGET', AMOUNT, id))
if previous then
  redis.call('ZREM', EXPIRY, id)
  redis.call('HDEL', AMOUNT, id)
  total = total - previous
end
persist(total)
return 0
`,
};

/** Returns the outstanding total after dropping what has expired. */
const outstanding: ScriptDefinition = {
  numberOfKeys: 3,
  lua: `${QUOTA_HEAD}
local total = purge()
persist(total)
return total
`,
};

/** Command names are namespaced: they are added to a client the caller may also use. */
export const KV_SCRIPTS = {
  tollgateKvTake: take,
  tollgateKvIncr: incr,
  tollgateKvHit: hit,
  tollgateKvReserve: reserve,
  tollgateKvSettle: settle,
  tollgateKvRelease: release,
  tollgateKvOutstanding: outstanding,
} as const satisfies Record<string, ScriptDefinition>;

/** The methods defineCommand adds for KV_SCRIPTS: keys first, then arguments. */
export interface KvScriptCommands {
  tollgateKvTake(key: string): Promise<string | null>;
  tollgateKvIncr(key: string, by: number, ttlMs: number): Promise<number>;
  tollgateKvHit(key: string, limit: number, windowMs: number): Promise<[number, number, number]>;
  tollgateKvReserve(
    expiryKey: string,
    amountKey: string,
    totalKey: string,
    reservationId: string,
    amount: number,
    available: number,
    ttlMs: number,
  ): Promise<[number, number]>;
  tollgateKvSettle(
    expiryKey: string,
    amountKey: string,
    totalKey: string,
    reservationId: string,
    actualAmount: number,
    holdMs: number,
  ): Promise<number>;
  tollgateKvRelease(
    expiryKey: string,
    amountKey: string,
    totalKey: string,
    reservationId: string,
  ): Promise<number>;
  tollgateKvOutstanding(expiryKey: string, amountKey: string, totalKey: string): Promise<number>;
}
