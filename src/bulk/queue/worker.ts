// createBulkWorker: a BullMQ worker that sends the jobs enqueueBulk put on the queue. A key is
// claimed in Redis before its send, so a job BullMQ hands out again (its worker died) is `unknown`.
import { InvalidArgumentError } from '../../shared/errors.js';
import { sendOne } from '../send-one.js';
import type { BulkClient, BulkMessage } from '../types.js';
import { DEFAULT_QUEUE, loadBullmq, openState, type BulkConnection, type BulkJobData } from './peers.js';

/** Options of `createBulkWorker`. */
export interface BulkWorkerOptions {
  /** BullMQ's `connection`: ioredis options (`{ host, port }`) or an ioredis instance. */
  connection: BulkConnection;
  /** The client that sends; give it a `rateLimitStore` (bizmsg/redis) so that all workers share the key's budget. */
  client: BulkClient;
  /** Jobs this worker sends at once (default 8). */
  concurrency?: number | undefined;
  /** More BullMQ `Worker` options, such as `lockDuration` and `stalledInterval`. */
  worker?: Record<string, unknown> | undefined;
  /** The BullMQ queue (default `bizmsg-bulk`), as given to `enqueueBulk`. */
  queue?: string | undefined;
}

/** A running bulk worker. */
export interface BulkWorker {
  /** Resolves once the worker is connected and taking jobs. */
  waitUntilReady(): Promise<void>;
  /** Finishes the jobs in hand, then stops taking jobs and lets go of Redis. */
  close(): Promise<void>;
}

/** Starts a worker that sends the bulk jobs of the queue, each key at most once. */
export async function createBulkWorker(options: BulkWorkerOptions): Promise<BulkWorker> {
  const { connection, client, concurrency = 8, worker = {}, queue = DEFAULT_QUEUE } = options;
  if (typeof client?.messages?.send !== 'function') {
    throw new InvalidArgumentError('createBulkWorker: `client` must be a Variant1Client or Variant2Client.');
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new InvalidArgumentError('createBulkWorker: `concurrency` must be a positive integer.');
  }
  const { Worker } = await loadBullmq('createBulkWorker');
  const state = await openState(connection, 'createBulkWorker');
  const bullWorker = new Worker<BulkJobData>(
    queue,
    async (job) => {
      const { bulk, key, body } = job.data;
      const claimed = await state.claim(bulk, key);
      if (claimed !== 'claimed') return claimed;
      const outcome = await sendOne(client, body as BulkMessage);
      if (outcome.status === 'unsent') {
        // The service was out of reach or refused the key: the key goes back to waiting, and BullMQ retries the job.
        await state.release(bulk, key);
        throw outcome.cause;
      }
      await state.record(bulk, key, outcome);
      return outcome.status;
    },
    { ...worker, connection: connection, concurrency },
  );
  // BullMQ reports Redis trouble as 'error' events; without a listener Node would throw them.
  bullWorker.on('error', () => undefined);
  return {
    waitUntilReady: async () => {
      await bullWorker.waitUntilReady();
    },
    close: async () => {
      await bullWorker.close();
      await state.close();
    },
  };
}
