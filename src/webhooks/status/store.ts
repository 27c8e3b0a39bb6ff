// The plug-in interface of the status tracker's records, and the options every status store takes.
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { hasMethods } from '../../shared/guards.js';
import { checkMs } from '../../shared/timers.js';
import type { StatusChange, StatusRecord, TrackedStatus } from './record.js';

/** Messages by status; `unknown` counts the ids asked for that no record holds. */
export type StatusSummary = Record<TrackedStatus | 'unknown', number> & {
  /** Every message counted. */
  total: number;
};

/**
 * Where a status tracker keeps its records (`memoryStatusStore`, or `redisStatusStore` from
 * `bizmsg/redis` to share them across processes). `merge` applies the rule of `mergeRecord`
 * atomically, so that two receivers racing cannot move a status back.
 */
export interface StatusStore {
  /** Merges `change` into its message's record and resolves with the record after it. */
  merge(change: StatusChange): Promise<StatusRecord>;
  /** The record of `id`, if one is held. */
  get(id: string): Promise<StatusRecord | undefined>;
  /** Counts the records of `ids` by status, or of every record held when `ids` is undefined. */
  summary(ids?: readonly string[]): Promise<StatusSummary>;
  /**
   * Calls `listener` with each record of `id` merged from now on, in this process or (for a
   * shared store) another; resolves once it listens, with the function that stops it.
   */
  watch(id: string, listener: (record: StatusRecord) => void): Promise<() => void>;
  /** Lets go of what the store opened (a subscription connection); it may be used again after. */
  close(): Promise<void>;
}

/** Options every status store takes. */
export interface StatusStoreOptions {
  /**
   * How long a record is kept after its last change, in ms (default 7 days): a message read a
   * week later is no longer followed, and the store stays bounded.
   */
  ttl?: number | undefined;
}

const DEFAULT_TTL_MS = 604_800_000; // 7 days, a literal: see dedupe/store.ts's DEFAULTS

/** The checked `ttl` of a status store's options. */
export function statusTtl(options: StatusStoreOptions, caller: string): number {
  if (typeof options !== 'object' || options === null)
    throw new InvalidArgumentError(`${caller}: options must be an object, e.g. { ttl }, got ${showValue(options)}.`);
  return checkMs(`${caller}: \`ttl\``, options.ttl, DEFAULT_TTL_MS, { min: 1, max: 31_536_000_000, integer: true });
}

const METHODS = ['merge', 'get', 'summary', 'watch', 'close'] as const;

/** True when `value` has every method of a `StatusStore`. */
export function isStatusStore(value: unknown): value is StatusStore {
  return hasMethods(value, METHODS);
}

/** A summary with every count at zero. */
export function emptySummary(): StatusSummary {
  return { total: 0, sent: 0, delivered: 0, read: 0, failed: 0, unknown: 0 };
}

/** Counts `statuses` (undefined: no record) into a summary. */
export function countStatuses(statuses: Iterable<TrackedStatus | undefined>): StatusSummary {
  const summary = emptySummary();
  for (const status of statuses) {
    summary[status ?? 'unknown'] += 1;
    summary.total += 1;
  }
  return summary;
}
