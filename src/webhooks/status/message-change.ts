// The change a message object brings: the answer of a send (track) or of a status read (refresh).
import { showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { isRecord } from '../../shared/guards.js';
import { isoTime } from './iso-time.js';
import { TRACKED_STATUSES, type StatusChange, type TrackedStatus } from './record.js';

/** What `track` takes: a sent message as a client returns it, or any object with its `id`. */
export interface TrackableMessage {
  /** The message id the service gave. */
  id: string;
  /** The recipient, in any spelling: the record keeps it as given. */
  to?: string | null | undefined;
  /** The status the service answered (default `sent`; one the tracker does not know counts as `sent`). */
  status?: string | undefined;
  /** When the service created it (ISO 8601), kept as the record's `sentAt`. */
  created_at?: string | null | undefined;
  /** When it was delivered (ISO 8601), kept as the record's `deliveredAt`. */
  delivered_at?: string | null | undefined;
  /** When it was read (ISO 8601), kept as the record's `readAt`. */
  read_at?: string | null | undefined;
  /** When it failed (ISO 8601), kept as the record's `failedAt`. */
  failed_at?: string | null | undefined;
}

const TIME_FIELDS = [
  ['created_at', 'sentAt'],
  ['delivered_at', 'deliveredAt'],
  ['read_at', 'readAt'],
  ['failed_at', 'failedAt'],
] as const;

/**
 * The change `message` brings, its times the service's own; `toWins` when its `to` is the caller's
 * spelling (track), which replaces an event's. `caller` names the method in the
 * `InvalidArgumentError` a message without a usable id or `to` gets.
 */
export function changeOfMessage(message: TrackableMessage, caller: string, toWins: boolean): StatusChange {
  if (!isRecord(message) || typeof message.id !== 'string' || message.id === '') {
    throw new InvalidArgumentError(
      `${caller} needs a message with a non-empty string \`id\` (what the send resolved with), got ${isRecord(message) ? `id ${showValue(message.id)}` : showValue(message)}.`,
    );
  }
  const change: StatusChange = { id: message.id, status: knownStatus(message.status) };
  if (message.to !== undefined && message.to !== null) {
    if (typeof message.to !== 'string' || message.to === '')
      throw new InvalidArgumentError(`${caller}: \`to\` must be a non-empty string, got ${showValue(message.to)}.`);
    change.to = message.to;
    if (toWins) change.toWins = true;
  }
  for (const [field, stamp] of TIME_FIELDS) {
    const value = message[field];
    const at = isoTime(value);
    if (at !== undefined) change[stamp] = at;
  }
  return change;
}

function knownStatus(status: unknown): TrackedStatus {
  return TRACKED_STATUSES.includes(status as TrackedStatus) ? (status as TrackedStatus) : 'sent';
}
