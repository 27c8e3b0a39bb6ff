// The names a bulk job has in Redis: the keys of its state and the BullMQ job id of each recipient key.

/** The Redis keys of one bulk job (one hash slot: the id is their hash tag). */
export function stateKeys(id: string): string[] {
  const base = `bizmsg:bulk:{${encodeURIComponent(id)}}`;
  return ['status', 'detail', 'pass', 'meta'].map((part) => `${base}:${part}`);
}

/** The BullMQ job id of a key of a bulk job: the same for the same pair, so adding it again adds nothing. */
export function jobId(id: string, key: string): string {
  return `bulk|${encodeURIComponent(id)}|${encodeURIComponent(key)}`;
}
