// enqueueBulk: one BullMQ job per recipient key of a bulk job, for workers on any machine. Each key
// is registered in the job's state first, so enqueueing again (after a crash, or twice) adds nothing twice.
import { InvalidArgumentError } from '../../shared/errors.js';
import { readRow, type Row } from '../row.js';
import type { BulkClient, BulkMessage } from '../types.js';
import { jobId, rowField } from './keys.js';
import { DEFAULT_QUEUE, loadBullmq, openState, type BulkConnection, type BulkJobData } from './peers.js';
import type { Registered } from './state.js';

/** Options of `enqueueBulk`. */
export interface EnqueueBulkOptions<R, C extends BulkClient = BulkClient> {
  /** BullMQ's `connection`: ioredis options (`{ host, port }`) or an ioredis instance. */
  connection: BulkConnection;
  /** The job's id: enqueueing it again adds only keys not enqueued before. */
  id: string;
  /** The recipients, any iterable or async iterable, read in batches. */
  recipients: Iterable<R> | AsyncIterable<R>;
  /** The message for a recipient (as `sendBulk`'s); a throw makes it `failed` at once. */
  message: (recipient: R) => BulkMessage<C> | Promise<BulkMessage<C>>;
  /** The recipient's key (default: its message's `to` in E.164). */
  key?: ((recipient: R) => string) | undefined;
  /** The BullMQ queue (default `bizmsg-bulk`); workers must use the same. */
  queue?: string | undefined;
}

/** What one `enqueueBulk` call did. */
export interface EnqueueReport {
  /** The job's id. */
  readonly id: string;
  /** Recipients read. */
  readonly read: number;
  /** Jobs added (or added again for keys still waiting). */
  readonly enqueued: number;
  /** Rows that cannot be sent (bad number, `message` threw): failed without a job. */
  readonly failed: number;
  /** Repeats of a key read earlier in this call. */
  readonly skipped: number;
  /** Keys an earlier call already enqueued and that have an outcome. */
  readonly done: number;
}

/** Rows registered, then added to the queue, per round trip. */
const BATCH = 500;

/** Puts one BullMQ job per recipient key of job `id` on the queue; resolves with what it did. */
export async function enqueueBulk<R, C extends BulkClient = BulkClient>(
  options: EnqueueBulkOptions<R, C>,
): Promise<EnqueueReport> {
  const { id, connection, recipients, queue = DEFAULT_QUEUE } = options;
  if (typeof id !== 'string' || id === '')
    throw new InvalidArgumentError('enqueueBulk: `id` must be a non-empty string.');
  if (typeof options.message !== 'function')
    throw new InvalidArgumentError('enqueueBulk: `message` must be a function.');
  const { Queue } = await loadBullmq('enqueueBulk');
  const state = await openState(connection, 'enqueueBulk');
  const bullQueue = new Queue<BulkJobData>(queue, { connection: connection });
  const counts = { read: 0, enqueued: 0, failed: 0, skipped: 0, done: 0 };
  try {
    const pass = await state.nextPass(id);
    const rules = { message: options.message as (r: R) => BulkMessage, key: options.key };
    let batch: Row[] = [];
    const flush = async () => {
      const first = counts.read - batch.length + 1;
      const found = await Promise.all(
        batch.map((row, i) => state.register(id, pass, row, row.error === undefined ? row.key : rowField(first + i))),
      );
      const jobs = batch.filter((_, i) => found[i] === 'new' || found[i] === 'requeue');
      for (const outcome of found) counts[COUNTED[outcome]] += 1;
      await bullQueue.addBulk(
        jobs.map((row) => ({
          name: id,
          data: { bulk: id, key: row.key, body: row.body },
          // A job whose service was out of reach is tried again later (its key unclaimed).
          opts: {
            jobId: jobId(id, row.key),
            removeOnComplete: true,
            removeOnFail: 1000,
            attempts: 8,
            backoff: { type: 'exponential', delay: 1000 },
          },
        })),
      );
      batch = [];
    };
    for await (const recipient of recipients) {
      counts.read += 1;
      batch.push(await readRow(recipient, counts.read, rules));
      if (batch.length >= BATCH) await flush();
    }
    await flush();
  } finally {
    await bullQueue.close();
    await state.close();
  }
  return { id, ...counts };
}

const COUNTED: Record<Registered, 'enqueued' | 'failed' | 'skipped' | 'done'> = {
  new: 'enqueued',
  requeue: 'enqueued',
  failed: 'failed',
  dup: 'skipped',
  done: 'done',
};
