// The Lua script of the shared rate-limit budget: one atomic step per call.
import { luaScript } from './commands.js';

/** How long a request in flight counts against the next window if nobody releases it (a crashed process). */
export const LEASE_MS = 65_000;

/**
 * The shared budget of one API key, as one Lua script so that each step is atomic. It follows
 * the client's own pacer (src/core/rate-limit.ts) with the counts kept in Redis:
 * room = min(limit - sent, remaining) per server window, where `sent` counts what every
 * process started in the window and `remaining` is the lowest `X-RateLimit-Remaining` seen.
 *
 * KEYS[1]: hash of the budget; KEYS[2]: sorted set of requests in flight (lease -> expiry);
 * KEYS[3]: those of them that were in flight when the window last ended.
 * ARGV: operation, now (ms on the service's clock), then the operation's own arguments.
 */
export const RATE_LIMIT_SCRIPT = luaScript(`
local budget, leases, carried = KEYS[1], KEYS[2], KEYS[3]
local op, now = ARGV[1], tonumber(ARGV[2])
-- Budgets unused this long are dropped; leases expire on their own.
local KEEP_MS = 600000
-- While the first request on a key is out to learn the limit, others ask again this often.
local PROBE_POLL_MS = 50
-- When the window has no room and its end is not known yet, held requests ask again this often.
local UNKNOWN_RESET_POLL_MS = 1000

local function field(name)
  return tonumber(redis.call('HGET', budget, name))
end

local function keep()
  redis.call('PEXPIRE', budget, KEEP_MS)
  redis.call('PEXPIRE', leases, KEEP_MS)
  redis.call('PEXPIRE', carried, KEEP_MS)
end

local function in_flight()
  redis.call('ZREMRANGEBYSCORE', leases, '-inf', now)
  return redis.call('ZCARD', leases)
end

-- The window ended: requests still in flight may reach the service in the next one, so they
-- count against it until their answer shows the window that counted them.
local function roll_over()
  local count = in_flight()
  redis.call('DEL', carried)
  if count > 0 then redis.call('ZUNIONSTORE', carried, 1, leases) end
  redis.call('HSET', budget, 'stale', field('reset') or 0, 'reset', 0, 'resetAt', 0, 'sent', count)
  redis.call('HDEL', budget, 'remaining')
end

local function wait_until(at)
  return math.max(1, math.ceil(at - now))
end

-- 0 when the lease takes a slot, else the ms to wait before asking again.
local function acquire(lease, lease_ms)
  local paused = field('paused') or 0
  if now < paused then return wait_until(paused) end
  local reset_at = field('resetAt') or 0
  if reset_at ~= 0 and now >= reset_at then
    roll_over()
    reset_at = 0
  end
  local limit = field('limit')
  if limit == nil then
    -- Nothing known of the key: one request goes first to learn the limit ('' once it was answered).
    local probe = redis.call('HGET', budget, 'probe')
    if probe ~= '' then
      local until_ = probe and tonumber(redis.call('ZSCORE', leases, probe))
      if until_ and until_ > now then return PROBE_POLL_MS end
      redis.call('HSET', budget, 'probe', lease)
    end
  else
    local room = limit - (field('sent') or 0)
    local remaining = field('remaining')
    if remaining ~= nil and remaining < room then room = remaining end
    if room <= 0 then
      if reset_at ~= 0 then return wait_until(reset_at) end
      return UNKNOWN_RESET_POLL_MS
    end
  end
  redis.call('HINCRBY', budget, 'sent', 1)
  redis.call('ZADD', leases, now + lease_ms, lease)
  keep()
  return 0
end

-- Takes in the X-RateLimit-* values of a response.
local function observe(limit, remaining, reset, reset_at)
  local current = field('reset') or 0
  if reset <= (field('stale') or 0) or reset < current then return end
  if reset > current then
    -- The service moved to a new window before our clocks said so: count afresh.
    if current ~= 0 then roll_over() end
    redis.call('HSET', budget, 'reset', reset, 'resetAt', reset_at)
  end
  local known = field('remaining')
  if known == nil or remaining < known then redis.call('HSET', budget, 'remaining', remaining) end
  redis.call('HSET', budget, 'limit', limit)
  keep()
end

-- The request holding the lease was answered (its response's window, if it had one) or failed.
local function release(lease, limit, remaining, reset, reset_at)
  local was_carried = redis.call('ZREM', carried, lease) == 1
  if limit ~= nil then
    -- Carried into this window but counted by the service in the one before: give its slot back.
    if was_carried and reset == field('stale') and (field('sent') or 0) > 0 then redis.call('HINCRBY', budget, 'sent', -1) end
    observe(limit, remaining, reset, reset_at)
  end
  redis.call('ZREM', leases, lease)
  if redis.call('HGET', budget, 'probe') == lease then redis.call('HSET', budget, 'probe', '') end
  return 0
end

-- A 429 holds everyone until its wait is over; after it, what earlier headers said of the
-- window no longer counts (a gateway's 429 carries none), only limit - sent.
local function pause(until_)
  if until_ > (field('paused') or 0) then redis.call('HSET', budget, 'paused', until_) end
  redis.call('HDEL', budget, 'remaining')
  keep()
  return 0
end

if op == 'acquire' then return acquire(ARGV[3], tonumber(ARGV[4])) end
if op == 'release' then return release(ARGV[3], tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])) end
if op == 'pause' then return pause(tonumber(ARGV[3])) end
return redis.error_reply('unknown operation ' .. tostring(op))
`);
