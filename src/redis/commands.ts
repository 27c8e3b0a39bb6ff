import { createHash } from 'node:crypto';
import { showValue } from '../shared/describe.js';

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
export function commandSender(redis: RedisClientLike, timeout: number, caller: string): SendCommand {
  const send = rawSender(redis, caller);
  return (args) => bounded(send(args), timeout, args[0]!);
}

function rawSender(redis: RedisClientLike, caller: string): SendCommand {
  const client = redis as Partial<IoRedisLike & NodeRedisLike> | null;
  if (typeof client?.call === 'function') return (args) => (redis as IoRedisLike).call(args[0]!, ...args.slice(1));
  if (typeof client?.sendCommand === 'function') return (args) => (redis as NodeRedisLike).sendCommand(args);
  throw new TypeError(`${caller} needs an ioredis client (new Redis()) or a node-redis client (createClient()).`);
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
export function checkTimeout(value: unknown, caller: string): number {
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 60_000) {
    throw new TypeError(
      `${caller}: timeout must be a number of ms above 0 and at most 60000, got ${showValue(value)}.`,
    );
  }
  return value;
}

/** Checks a key prefix option. */
export function checkPrefix(value: unknown, fallback: string, caller: string): string {
  if (value === undefined) return fallback;
  if (typeof value !== 'string') throw new TypeError(`${caller}: prefix must be a string, got ${typeof value}.`);
  return value;
}

function bounded<T>(promise: Promise<T>, ms: number, command: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    // After a stall of the event loop, timers run before the socket's waiting reply is read:
    // setImmediate lets that reply in first, so a busy process does not mistake it for a timeout.
    timer = setTimeout(
      () => setImmediate(() => reject(new Error(`Redis did not answer ${command} within ${ms} ms`))),
      ms,
    );
    // A Redis that hangs must not keep the process alive.
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
