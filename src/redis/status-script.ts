// The Lua script of the shared status records: the merge rule of webhooks/status/record.ts, atomic in Redis.
import { luaScript } from './commands.js';

/**
 * Merges one change into a message's record, as `mergeRecord` does (keep the two alike): the
 * status moves only forward (sent < delivered < read < failed), each time keeps its earliest
 * value (ISO strings of one form, so comparing strings compares times), `to` and `error` are
 * kept once known, a `to` with `toWins` replaces an event's. A changed record is stored for the
 * ttl and published, so that waiting processes hear it.
 *
 * KEYS[1]: the record (a JSON string). ARGV: the change (JSON), ttl (ms), the channel.
 * Returns the record after the change (JSON).
 */
export const MERGE_STATUS_SCRIPT = luaScript(`
local RANK = { sent = 1, delivered = 2, read = 3, failed = 4 }
local STAMPS = { 'sentAt', 'deliveredAt', 'readAt', 'failedAt' }
local change = cjson.decode(ARGV[1])
local stored = redis.call('GET', KEYS[1])
local record, changed
if stored then
  record, changed = cjson.decode(stored), false
else
  record, changed = { id = change.id, status = change.status }, true
end
if RANK[change.status] > RANK[record.status] then
  record.status, changed = change.status, true
end
if change.to and (change.toWins or record.to == nil) and record.to ~= change.to then
  record.to, changed = change.to, true
end
for _, stamp in ipairs(STAMPS) do
  local at = change[stamp]
  if at and (record[stamp] == nil or at < record[stamp]) then
    record[stamp], changed = at, true
  end
end
if change.error and record.error == nil then
  record.error, changed = change.error, true
end
if not changed then return stored end
local json = cjson.encode(record)
redis.call('SET', KEYS[1], json, 'PX', ARGV[2])
redis.call('PUBLISH', ARGV[3], json)
return json
`);
