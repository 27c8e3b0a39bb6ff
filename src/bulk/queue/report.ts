// bulkReport: the totals and per-key results of a bulk job sent through BullMQ, read from its state in Redis.
import { InvalidArgumentError } from '../../shared/errors.js';
import type { BulkReport, BulkResult } from '../types.js';
import { openState, type BulkConnection } from './peers.js';
import { stateKeys } from './keys.js';

/** Keys read per HSCAN. */
const SCAN = 500;

/** Reads the report of bulk job `id` on BullMQ: the counts so far, and the results of the recipients ended. */
export async function bulkReport(options: { connection: BulkConnection; id: string }): Promise<BulkReport> {
  const { connection, id } = options;
  if (typeof id !== 'string' || id === '')
    throw new InvalidArgumentError('bulkReport: `id` must be a non-empty string.');
  const state = await openState(connection, 'bulkReport');
  let meta: Record<string, number>;
  try {
    const flat = (await state.send(['HGETALL', stateKeys(id)[3]!])) as string[];
    meta = {};
    for (let i = 0; i < flat.length; i += 2) meta[flat[i]!] = Number(flat[i + 1]);
  } finally {
    await state.close();
  }
  const count = (name: string) => meta[name] ?? 0;
  return {
    id,
    total: count('total'),
    sent: count('sent'),
    failed: count('failed'),
    unknown: count('unknown'),
    skipped: count('skipped'),
    suppressed: count('suppressed'),
    pending: count('queued') + count('claimed'),
    aborted: false,
    results: () => readResults(connection, id),
  };
}

async function* readResults(connection: BulkConnection, id: string): AsyncGenerator<BulkResult> {
  const state = await openState(connection, 'bulkReport');
  const [statusKey, detailKey] = stateKeys(id) as [string, string];
  try {
    let cursor = '0';
    do {
      const [next, flat] = (await state.send(['HSCAN', statusKey, cursor, 'COUNT', String(SCAN)])) as [
        string,
        string[],
      ];
      cursor = next;
      const keys = flat.filter((_, i) => i % 2 === 0);
      const details = keys.length === 0 ? [] : ((await state.send(['HMGET', detailKey, ...keys])) as string[]);
      for (const [i, key] of keys.entries()) {
        const status = flat[i * 2 + 1]!;
        if (status === 'queued' || status === 'claimed') continue;
        const detail = JSON.parse(details[i]!) as Omit<BulkResult, 'key' | 'status'>;
        yield { key, ...detail, status: status as BulkResult['status'] };
      }
    } while (cursor !== '0');
  } finally {
    await state.close();
  }
}
