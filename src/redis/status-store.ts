// A StatusStore in Redis: message status records shared by every receiver and sender process.
import { isRecord } from '../shared/guards.js';
import type { StatusChange, StatusRecord } from '../webhooks/status/record.js';
import { countStatuses, statusTtl, type StatusStore, type StatusStoreOptions } from '../webhooks/status/store.js';
import { evalScript, type RedisClientLike, type SendCommand, storeConnection } from './commands.js';
import { MERGE_STATUS_SCRIPT } from './status-script.js';
import { ChannelSubscriber } from './subscriber.js';

/** Options of `redisStatusStore`. */
export interface RedisStatusStoreOptions extends StatusStoreOptions {
  /** Prefix of the store's Redis keys and of its channel (default `bizmsg:status:`). */
  prefix?: string | undefined;
  /** Longest one Redis call may take, in ms (default 500); after it the call rejects. */
  timeout?: number | undefined;
}

/** Keys read per MGET, and asked per SCAN step, by `summary`. */
const BATCH = 500;

/**
 * A status tracker's store in Redis (`createStatusTracker({ store: redisStatusStore(redis) })`),
 * shared by every process: a receiver's `apply` in one process is heard by a `waitFor` in another
 * through Redis pub/sub, on a duplicate of `redis` opened while someone waits (close it with
 * `tracker.close()`). Each merge is one atomic Lua script, so racing receivers cannot move a
 * status back; each record is one key, kept `ttl` ms (default 7 days) after its last change.
 */
export function redisStatusStore(redis: RedisClientLike, options: RedisStatusStoreOptions = {}): StatusStore {
  const caller = 'redisStatusStore';
  const ttl = statusTtl(options, caller);
  const { send, prefix } = storeConnection(redis, options, 'bizmsg:status:', caller);
  const channel = `${prefix}changes`;
  const get = async (id: string) => recordOf(await send(['GET', prefix + id]));
  const subscriber = new ChannelSubscriber<StatusRecord>(
    redis,
    channel,
    (message) => {
      const record = recordOf(message);
      return record === undefined ? undefined : { key: record.id, value: record };
    },
    get,
  );
  return {
    async merge(change: StatusChange) {
      const json = await evalScript(
        send,
        MERGE_STATUS_SCRIPT,
        [prefix + change.id],
        [JSON.stringify(change), ttl, channel],
      );
      return recordOf(json) ?? unreadable(change.id);
    },
    get,
    async summary(ids) {
      const keys = ids === undefined ? await allKeys(send, prefix) : ids.map((id) => prefix + id);
      const records = await readMany(send, keys);
      // Keys SCAN found may have expired before MGET read them: they are not counted.
      return countStatuses(
        ids === undefined ? records.filter((r) => r !== undefined).map((r) => r.status) : records.map((r) => r?.status),
      );
    },
    watch: (id, listener) => subscriber.listen(id, listener),
    close: () => subscriber.close(),
  };
}

function recordOf(json: unknown): StatusRecord | undefined {
  if (typeof json !== 'string') return undefined;
  try {
    const record: unknown = JSON.parse(json);
    return isRecord(record) && typeof record.id === 'string' ? (record as unknown as StatusRecord) : undefined;
  } catch {
    return undefined;
  }
}

function unreadable(id: string): never {
  throw new Error(`Redis answered the status merge of ${id} with something that is not a record.`);
}

async function readMany(send: SendCommand, keys: readonly string[]): Promise<Array<StatusRecord | undefined>> {
  const records: Array<StatusRecord | undefined> = [];
  for (let i = 0; i < keys.length; i += BATCH) {
    const values = (await send(['MGET', ...keys.slice(i, i + BATCH)])) as unknown[];
    records.push(...values.map(recordOf));
  }
  return records;
}

/** Every record key, by SCAN (which never blocks Redis the way KEYS would). */
async function allKeys(send: SendCommand, prefix: string): Promise<string[]> {
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = (await send(['SCAN', cursor, 'MATCH', pattern, 'COUNT', String(BATCH)])) as [
      string,
      string[],
    ];
    for (const key of batch) keys.add(key);
    cursor = String(next);
  } while (cursor !== '0');
  return [...keys];
}
