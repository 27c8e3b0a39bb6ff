// One pub/sub channel heard on a second connection (a client's duplicate), shared by every waiter of a store.
import { InvalidArgumentError } from '../shared/errors.js';
import { withTimeout } from '../shared/timers.js';
import type { RedisClientLike } from './commands.js';

/** What a subscription needs of either client: a second connection, since a subscribed one can send nothing else. */
interface Duplicable {
  duplicate(): unknown;
}

/** ioredis: a duplicate connects by itself; messages arrive as events. */
interface IoRedisSubscriber {
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  subscribe(channel: string): Promise<unknown>;
  disconnect(): void;
}

/** node-redis v4 to v6: a duplicate is connected by hand; messages go to the subscribe listener. */
interface NodeRedisSubscriber {
  on(event: 'error', listener: (error: unknown) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  destroy?(): void;
  disconnect?(): Promise<unknown>;
}

/** How long a waiter-less subscription stays open for the next waiter (ms). */
const IDLE_CLOSE_MS = 5000;
/** Longest opening a subscription may take (a second connection, then SUBSCRIBE). */
const CONNECT_TIMEOUT_MS = 5000;

/** True when `redis` can open the second connection a subscription needs. */
export function canSubscribe(redis: RedisClientLike): boolean {
  return typeof (redis as Partial<Duplicable>).duplicate === 'function';
}

/**
 * Hears `channel` on a duplicate of `redis`, opened at the first `listen` and closed once nobody
 * listened for a few seconds (or at `close`), and hands each message to the listeners of the key
 * `read` finds in it. What was published while the connection was down is lost to pub/sub, so
 * when it is ready again each key's current value is read (`current`) and handed on.
 */
export class ChannelSubscriber<T> {
  readonly #redis: RedisClientLike;
  readonly #channel: string;
  readonly #read: (message: string) => { key: string; value: T } | undefined;
  readonly #current: (key: string) => Promise<T | undefined>;
  readonly #listeners = new Map<string, Set<(value: T) => void>>();
  #connection: Promise<() => void> | undefined;
  #idle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    redis: RedisClientLike,
    channel: string,
    read: (message: string) => { key: string; value: T } | undefined,
    current: (key: string) => Promise<T | undefined>,
  ) {
    if (!canSubscribe(redis))
      throw new InvalidArgumentError('The Redis client has no duplicate(): pass an ioredis or node-redis client.');
    this.#redis = redis;
    this.#channel = channel;
    this.#read = read;
    this.#current = current;
  }

  /** Calls `listener` with each value published for `key`; resolves once subscribed, with the function that stops it. */
  async listen(key: string, listener: (value: T) => void): Promise<() => void> {
    clearTimeout(this.#idle);
    const listeners = this.#listeners.get(key) ?? new Set();
    this.#listeners.set(key, listeners.add(listener));
    const stop = () => {
      listeners.delete(listener);
      if (listeners.size === 0 && this.#listeners.get(key) === listeners) this.#listeners.delete(key);
      if (this.#listeners.size === 0) this.#closeWhenIdle();
    };
    try {
      await (this.#connection ??= this.#open());
    } catch (error) {
      stop();
      throw error;
    }
    return stop;
  }

  /** Closes the connection at once; a later `listen` opens a new one. */
  async close(): Promise<void> {
    clearTimeout(this.#idle);
    const connection = this.#connection;
    this.#connection = undefined;
    const end = await connection?.catch(() => undefined);
    end?.();
  }

  #closeWhenIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => void this.close(), IDLE_CLOSE_MS);
    (this.#idle as { unref?: () => void }).unref?.();
  }

  #hear(message: string): void {
    const heard = this.#read(message);
    if (heard !== undefined) this.#hand(heard.key, heard.value);
  }

  #hand(key: string, value: T): void {
    for (const listener of this.#listeners.get(key) ?? []) listener(value);
  }

  /** After a reconnection: what each listened key holds now, in case its news was published meanwhile. */
  #catchUp(): void {
    for (const key of this.#listeners.keys()) {
      this.#current(key).then(
        (value) => value !== undefined && this.#hand(key, value),
        () => undefined, // Still unreachable: the waiter's own timeout reads once more.
      );
    }
  }

  /** Opens the duplicate and subscribes; resolves with the function that closes it. */
  async #open(): Promise<() => void> {
    const duplicate = (this.#redis as unknown as Duplicable).duplicate();
    const isIoRedis = typeof (this.#redis as { call?: unknown }).call === 'function';
    const end = isIoRedis
      ? () => (duplicate as IoRedisSubscriber).disconnect()
      : () => void nodeRedisEnd(duplicate as NodeRedisSubscriber);
    // A dropped subscription connection reconnects and subscribes again on its own; its errors are not the caller's.
    (duplicate as IoRedisSubscriber).on('error', () => undefined);
    let opened = false;
    (duplicate as IoRedisSubscriber).on('ready', () => {
      if (opened) this.#catchUp();
    });
    try {
      const opening = isIoRedis
        ? this.#openIoRedis(duplicate as IoRedisSubscriber)
        : this.#openNodeRedis(duplicate as NodeRedisSubscriber);
      await withTimeout(
        opening,
        CONNECT_TIMEOUT_MS,
        `Redis did not open a subscription within ${CONNECT_TIMEOUT_MS} ms`,
      );
      opened = true;
    } catch (error) {
      end();
      this.#connection = undefined;
      throw error;
    }
    return end;
  }

  async #openIoRedis(duplicate: IoRedisSubscriber): Promise<void> {
    duplicate.on('message', (channel, message) => {
      if (channel === this.#channel) this.#hear(message);
    });
    await duplicate.subscribe(this.#channel);
  }

  async #openNodeRedis(duplicate: NodeRedisSubscriber): Promise<void> {
    await duplicate.connect();
    await duplicate.subscribe(this.#channel, (message) => this.#hear(message));
  }
}

/** node-redis v5 and v6 have destroy(); v4 has disconnect(). */
function nodeRedisEnd(duplicate: NodeRedisSubscriber): void {
  if (typeof duplicate.destroy === 'function') duplicate.destroy();
  else void duplicate.disconnect?.().catch(() => undefined);
}
