// Talking to Redis through either client (ioredis, node-redis): bounded commands and Lua scripts by SHA-1.
import { createHash } from 'node:crypto';
import { showValue } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { checkMs, withTimeout } from '../shared/timers.js';

/** An ioredis client (`Redis` or `Cluster`): what `bizmsg/redis` needs of it. */
export interface IoRedisLike {
  /** Sends one command with its arguments, as ioredis's `call`. */
  call(command: string, ...args: string[]): Promise<unknown>;
}

/** A node-redis v4, v5 or v6 client (`createClient()`): what `bizmsg/redis` needs of it. */
export interface NodeRedisLike {
  /** Sends one command given as its words, as node-redis's `sendCommand`. */
  sendCommand(args: string[]): Promise<unknown>;
}

/** A connected `ioredis` or `redis` (node-redis) client. */
export type RedisClientLike = IoRedisLike | NodeRedisLike;

/** Sends one command and resolves with its reply. */
export type SendCommand = (args: string[]) => Promise<unknown>;

/** A Lua script and its SHA-1, for EVALSHA. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

/** Default bound of one Redis call (ms): Redis answers in well under a millisecond on a LAN. */
const DEFAULT_TIMEOUT_MS = 500;

/**
 * A function that sends commands through `redis`, found by its shape (ioredis has `call`,
 * node-redis has `sendCommand(args)`), each bounded by `timeout` ms.
 */
function commandSender(redis: RedisClientLike, timeout: number, caller: string): SendCommand {
  const send = rawSender(redis, caller);
  return (args) => withTimeout(send(args), timeout, `Redis did not answer ${args[0]!} within ${timeout} ms`);
}

function rawSender(redis: RedisClientLike, caller: string): SendCommand {
  const client = redis as Partial<IoRedisLike & NodeRedisLike> | null;
  if (typeof client?.call === 'function') return (args) => (redis as IoRedisLike).call(args[0]!, ...args.slice(1));
  if (typeof client?.sendCommand === 'function') return (args) => (redis as NodeRedisLike).sendCommand(args);
  throw new InvalidArgumentError(
    `${caller} needs an ioredis client (new Redis()) or a node-redis client (createClient()).`,
  );
}

/** A script ready for EVALSHA. */
export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/**
 * Runs a script by its SHA-1, loading it with EVAL when Redis does not know it yet (a new or
 * restarted server).
 */
export async function evalScript(
  send: SendCommand,
  script: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  const rest = [String(keys.length), ...keys, ...args.map(String)];
  try {
    return await send(['EVALSHA', script.sha, ...rest]);
  } catch (error) {
    if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
    return send(['EVAL', script.source, ...rest]);
  }
}

/** Checks a timeout option (ms). */
function checkTimeout(value: unknown, caller: string): number {
  return checkMs(`${caller}: \`timeout\``, value, DEFAULT_TIMEOUT_MS, { min: 1, max: 60_000 });
}

/** Checks a key prefix option. */
function checkPrefix(value: unknown, fallback: string, caller: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string')
    throw new InvalidArgumentError(`${caller}: \`prefix\` must be a string, got ${showValue(value)}.`);
  return value;
}

/** The options every Redis store takes: its key prefix and the bound of one call. */
export interface StoreConnectionOptions {
  prefix?: string;
  timeout?: number;
}

/** A store's checked way to Redis: its command sender (bounded by `timeout`) and its key prefix. */
export function storeConnection(
  redis: RedisClientLike,
  options: StoreConnectionOptions,
  defaultPrefix: string,
  caller: string,
): { send: SendCommand; prefix: string } {
  return {
    send: commandSender(redis, checkTimeout(options.timeout, caller), caller),
    prefix: checkPrefix(options.prefix, defaultPrefix, caller),
  };
}
