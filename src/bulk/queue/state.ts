// A bulk job's state in Redis, beside BullMQ's queue: per key its status (queued, claimed, sent,
// failed, unknown), its details and the enqueue pass that last read it, and the job's counts.
// Each change of a key is one Lua script, so the counts always add up and a claim is taken once.
import { evalScript, luaScript, type SendCommand } from '../../redis/commands.js';
import type { BulkFailure } from '../types.js';
import { stateKeys } from './keys.js';

/** What `register` found: a new key, a repeat in this pass, or a key of an earlier pass (still queued or done). */
export type Registered = 'new' | 'failed' | 'dup' | 'requeue' | 'done';

const REGISTER = luaScript(`
local s = redis.call('HGET', KEYS[1], ARGV[1])
if not s then
  local status = ARGV[4] == '1' and 'failed' or 'queued'
  redis.call('HSET', KEYS[1], ARGV[1], status)
  redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
  redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
  redis.call('HINCRBY', KEYS[4], 'total', 1)
  redis.call('HINCRBY', KEYS[4], status, 1)
  return status == 'queued' and 'new' or 'failed'
end
if redis.call('HGET', KEYS[3], ARGV[1]) == ARGV[2] then
  redis.call('HINCRBY', KEYS[4], 'total', 1)
  redis.call('HINCRBY', KEYS[4], 'skipped', 1)
  return 'dup'
end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return s == 'queued' and 'requeue' or 'done'
`);

/**
 * Records a key read by enqueue pass `pass`: queued to send, or failed already (`error`), under the
 * field `field` (a row that cannot be sent has one of its own, its key kept in its details).
 */
export async function register(
  send: SendCommand,
  id: string,
  pass: number,
  row: { key: string; to: string; error?: BulkFailure | undefined },
  field = row.key,
): Promise<Registered> {
  const detail = JSON.stringify(
    row.error === undefined ? { to: row.to } : { key: row.key, to: row.to, error: row.error },
  );
  const args = [field, pass, detail, row.error === undefined ? '0' : '1'];
  return (await evalScript(send, REGISTER, stateKeys(id), args)) as Registered;
}

const CLAIM = luaScript(`
local s = redis.call('HGET', KEYS[1], ARGV[1])
if s == 'queued' then
  redis.call('HSET', KEYS[1], ARGV[1], 'claimed')
  redis.call('HINCRBY', KEYS[4], 'queued', -1)
  redis.call('HINCRBY', KEYS[4], 'claimed', 1)
  return 'claimed'
end
if s == 'claimed' then
  redis.call('HSET', KEYS[1], ARGV[1], 'unknown')
  redis.call('HINCRBY', KEYS[4], 'claimed', -1)
  redis.call('HINCRBY', KEYS[4], 'unknown', 1)
  local d = cjson.decode(redis.call('HGET', KEYS[2], ARGV[1]))
  d.error = cjson.decode(ARGV[2])
  redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(d))
  return 'unknown'
end
return s or 'missing'
`);

/** The error of a key handed out again after the worker that claimed it died. */
const INTERRUPTED = JSON.stringify({
  code: 'INTERRUPTED',
  message:
    'the worker that claimed this recipient stopped before recording its outcome; its message may have been sent, so it is not sent again',
});

/**
 * Claims a key before its send: `claimed` (send it), `unknown` (it was claimed before, by a worker
 * that died: never sent again), or its outcome when it has one (nothing to do).
 */
export async function claim(send: SendCommand, id: string, key: string): Promise<string> {
  return (await evalScript(send, CLAIM, stateKeys(id), [key, INTERRUPTED])) as string;
}

const RECORD = luaScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) ~= 'claimed' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[4], 'claimed', -1)
redis.call('HINCRBY', KEYS[4], ARGV[2], 1)
local d = cjson.decode(redis.call('HGET', KEYS[2], ARGV[1]))
if ARGV[3] ~= '' then d.messageId = ARGV[3] end
if ARGV[4] ~= '' then d.error = cjson.decode(ARGV[4]) end
redis.call('HSET', KEYS[2], ARGV[1], cjson.encode(d))
return 1
`);

/** Records the outcome of a claimed key. */
export async function record(
  send: SendCommand,
  id: string,
  key: string,
  outcome: { status: 'sent' | 'failed' | 'unknown'; messageId?: string; error?: BulkFailure },
): Promise<void> {
  const error = outcome.error === undefined ? '' : JSON.stringify(outcome.error);
  await evalScript(send, RECORD, stateKeys(id), [key, outcome.status, outcome.messageId ?? '', error]);
}

const RELEASE = luaScript(`
if redis.call('HGET', KEYS[1], ARGV[1]) ~= 'claimed' then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], 'queued')
redis.call('HINCRBY', KEYS[4], 'claimed', -1)
redis.call('HINCRBY', KEYS[4], 'queued', 1)
return 1
`);

/** Gives back the claim of a key whose request never reached the service: it waits to be sent again. */
export async function release(send: SendCommand, id: string, key: string): Promise<void> {
  await evalScript(send, RELEASE, stateKeys(id), [key]);
}

/** Starts an enqueue pass of the job: its number. */
export async function nextPass(send: SendCommand, id: string): Promise<number> {
  return Number(await send(['HINCRBY', stateKeys(id)[3]!, 'passes', '1']));
}

/** The state commands of a job, on one Redis connection. */
export type StateCommands = ReturnType<typeof stateCommands>;

/** The state commands bound to `send`. */
export function stateCommands(send: SendCommand) {
  return {
    send,
    register: (id: string, pass: number, row: Parameters<typeof register>[3], field?: string) =>
      register(send, id, pass, row, field),
    claim: (id: string, key: string) => claim(send, id, key),
    record: (id: string, key: string, outcome: Parameters<typeof record>[3]) => record(send, id, key, outcome),
    release: (id: string, key: string) => release(send, id, key),
    nextPass: (id: string) => nextPass(send, id),
  };
}
