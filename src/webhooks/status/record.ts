// What is known of one message's status, and the one rule that merges news into it.

/** A message's delivery status, in the order it moves: sent < delivered < read; failed is final. */
export type TrackedStatus = 'sent' | 'delivered' | 'read' | 'failed';

/** Every status, in rank order: a record's status only ever moves right. */
export const TRACKED_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const satisfies readonly TrackedStatus[];

/** What a failure event said went wrong, when it said. */
export interface StatusFailure {
  /** The service's or channel's code, e.g. `'UNDELIVERABLE'`. */
  code?: string;
  /** Its words. */
  message?: string;
}

/**
 * What a status tracker knows of one message. Times are ISO 8601 strings from the events (the
 * service's clock, the mock's virtual one in tests); each is the earliest seen for its step.
 */
export interface StatusRecord {
  /** The message id. */
  id: string;
  /** The recipient, as `track` was given it (else as an event spelled it). */
  to?: string;
  /** The furthest status seen. */
  status: TrackedStatus;
  /** When it was sent (ISO 8601), once a send's answer or an event said. */
  sentAt?: string;
  /** When it was delivered (ISO 8601), once an event or a status read said. */
  deliveredAt?: string;
  /** When it was read (ISO 8601), once an event or a status read said. */
  readAt?: string;
  /** When it failed (ISO 8601), if it did. */
  failedAt?: string;
  /** The failure's details, when a `message.failed` event carried them. */
  error?: StatusFailure;
}

/** The time fields of a record, by status. */
export const STAMPS = {
  sent: 'sentAt',
  delivered: 'deliveredAt',
  read: 'readAt',
  failed: 'failedAt',
} as const satisfies Record<TrackedStatus, keyof StatusRecord>;

type Stamp = (typeof STAMPS)[TrackedStatus];

/**
 * News of one message, as a store merges it: from `track`, an event or a status read. `toWins`
 * marks the caller's own spelling of `to` (track), which replaces an event's.
 */
export interface StatusChange extends StatusRecord {
  /** True when `to` is the caller's own spelling (from `track`): it replaces the one an event gave. */
  toWins?: boolean;
}

/**
 * The record after `change`: the status moves only forward (failed ranks last, so any order of
 * the same news ends in the same record), each time keeps its earliest value, `to` and `error`
 * are kept once known. `redis/status-script.ts` applies the same rule in Lua: keep them alike.
 */
export function mergeRecord(
  current: StatusRecord | undefined,
  change: StatusChange,
): { record: StatusRecord; changed: boolean } {
  const record: StatusRecord = current === undefined ? { id: change.id, status: change.status } : { ...current };
  let changed = current === undefined;
  if (rank(change.status) > rank(record.status)) {
    record.status = change.status;
    changed = true;
  }
  if (change.to !== undefined && (change.toWins === true || record.to === undefined) && record.to !== change.to) {
    record.to = change.to;
    changed = true;
  }
  for (const stamp of Object.values(STAMPS) as Stamp[]) {
    const at = change[stamp];
    if (at !== undefined && (record[stamp] === undefined || at < record[stamp])) {
      record[stamp] = at;
      changed = true;
    }
  }
  if (change.error !== undefined && record.error === undefined) {
    record.error = change.error;
    changed = true;
  }
  return { record, changed };
}

function rank(status: TrackedStatus): number {
  return TRACKED_STATUSES.indexOf(status);
}

/** What `waitFor` waits for: a status reached or passed; `final` is read or failed. */
export type StatusGoal = 'delivered' | 'read' | 'final';

/**
 * True when `record` has reached `goal`. A failed message reaches `final`, and `delivered` or
 * `read` only where an event said it got there no later than it failed, by the events' own times
 * (events arrive in any order: a delivery stamped after the failure came too late to count).
 */
export function reached(record: StatusRecord, goal: StatusGoal): boolean {
  if (record.status === 'failed') {
    const beforeFailure = (at: string | undefined) =>
      at !== undefined && (record.failedAt === undefined || at <= record.failedAt);
    return (
      goal === 'final' || beforeFailure(record.readAt) || (goal === 'delivered' && beforeFailure(record.deliveredAt))
    );
  }
  if (goal === 'final') return record.status === 'read';
  return rank(record.status) >= rank(goal);
}
