// The names a bulk job has in Redis: the keys of its state, the BullMQ job id of each recipient key,
// and the field of a row that cannot be sent.

/** The Redis keys of one bulk job (one hash slot: the id is their hash tag). */
export function stateKeys(id: string): string[] {
  const base = `bizmsg:bulk:{${encodeURIComponent(id)}}`;
  return ['status', 'detail', 'pass', 'meta'].map((part) => `${base}:${part}`);
}

/** The BullMQ job id of a key of a bulk job: the same for the same pair, so adding it again adds nothing. */
export function jobId(id: string, key: string): string {
  return `bulk|${encodeURIComponent(id)}|${encodeURIComponent(key)}`;
}

/**
 * The field of row `index` (from 1) of the list when it cannot be sent: each such row is failed on
 * its own (a repeat of junk is still a row, not a repeat of a key), and enqueueing the list again
 * finds it done.
 */
export function rowField(index: number): string {
  return `\u0000row:${index}`;
}
