// The optional peers of the BullMQ functions, loaded when one of them is first called: bullmq, and
// a Redis connection of our own (ioredis, the client BullMQ uses) for the job's state. The state's
// code is loaded with them, so that importing bizmsg/bulk loads nothing of Node (sendBulk runs anywhere).
import type { IoRedisLike } from '../../redis/commands.js';
import { BizMsgError, InvalidArgumentError } from '../../shared/errors.js';
import type { StateCommands } from './state.js';

/** BullMQ's `connection`: ioredis options (`{ host, port }`) or an ioredis instance. */
export type BulkConnection = Record<string, unknown> | IoRedisLike;

/** Redis commands for a job's state, and how to let go of the connection. */
export interface StateConnection extends StateCommands {
  close(): Promise<void>;
}

/** A Redis call of the state answers within this (ms); BullMQ's own calls have their own bounds. */
const STATE_TIMEOUT_MS = 5000;

/** bullmq, or an error saying to install it. */
export async function loadBullmq(caller: string): Promise<typeof import('bullmq')> {
  try {
    return await import('bullmq');
  } catch (error) {
    throw new BizMsgError(`${caller} needs the package bullmq: npm install bullmq`, { cause: error });
  }
}

/** Commands on the Redis of `connection`: the instance itself, or a new ioredis client for the options. */
export async function openState(connection: BulkConnection, caller: string): Promise<StateConnection> {
  if (typeof connection !== 'object' || connection === null) {
    throw new InvalidArgumentError(
      `${caller}: \`connection\` must be ioredis options ({ host, port }) or an ioredis instance.`,
    );
  }
  const [{ storeConnection }, { stateCommands }] = await Promise.all([
    import('../../redis/commands.js'),
    import('./state.js'),
  ]);
  if (typeof (connection as Partial<IoRedisLike>).call === 'function') {
    const commands = stateCommands(stateSender(storeConnection, connection as IoRedisLike, caller));
    return { ...commands, close: () => Promise.resolve() };
  }
  let Redis: typeof import('ioredis').Redis;
  try {
    ({ Redis } = await import('ioredis'));
  } catch (error) {
    throw new BizMsgError(`${caller} needs the package ioredis (bullmq's Redis client): npm install ioredis`, {
      cause: error,
    });
  }
  const redis = new Redis({ ...connection, lazyConnect: false });
  return {
    ...stateCommands(stateSender(storeConnection, redis, caller)),
    close: async () => {
      await redis.quit();
    },
  };
}

/** The BullMQ queue bulk jobs go through unless told otherwise. */
export const DEFAULT_QUEUE = 'bizmsg-bulk';

/** What a BullMQ job of a bulk send carries. */
export interface BulkJobData {
  readonly bulk: string;
  readonly key: string;
  readonly body: unknown;
}

/** Commands to `redis`, each bounded by the state's timeout. */
function stateSender(
  connect: typeof import('../../redis/commands.js').storeConnection,
  redis: IoRedisLike,
  caller: string,
) {
  return connect(redis, { timeout: STATE_TIMEOUT_MS }, '', caller).send;
}
