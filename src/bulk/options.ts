// The options of sendBulk, checked before anything is read or sent.
import { showValue } from '../shared/describe.js';
import { InvalidArgumentError } from '../shared/errors.js';
import { hasMethods, isIterable } from '../shared/guards.js';
import { checkRunOptions, type RunSettings } from '../runs/options.js';
import { memoryJournal, type BulkJournal } from './journal.js';
import type { RowRules } from './row.js';
import type { BulkClient, BulkMessage } from './types.js';

/** Options of `sendBulk`. */
export interface SendBulkOptions<R, C extends BulkClient = BulkClient> {
  /** The job's id: running it again with the same journal resumes it. */
  id: string;
  /** The recipients, any iterable or async iterable; read as the sends go, never all held. */
  recipients: Iterable<R> | AsyncIterable<R>;
  /** The message for a recipient; a throw makes that recipient `failed` (`INVALID_RECIPIENT`). */
  message: (recipient: R) => BulkMessage<C> | Promise<BulkMessage<C>>;
  /** The recipient's key (default: its message's `to` in E.164); a key seen twice is sent once. */
  key?: ((recipient: R) => string) | undefined;
  /** Where claims and outcomes are recorded (default `memoryJournal()`); `fileJournal(path)` survives a crash. */
  journal?: BulkJournal | undefined;
  /** Sends in flight at once (1 to 256, default 8). */
  concurrency?: number | undefined;
  /** Stops reading recipients; the sends in flight finish and are recorded. */
  signal?: AbortSignal | undefined;
  /** Sends again a recipient whose earlier send may have been processed (`unknown`): may send a duplicate. */
  resendUnknown?: boolean | undefined;
  /**
   * Holds a recipient back (an opt-out): called with the recipient and its number in E.164 before
   * anything is claimed; `true` or a reason (`'opted out'`) holds it back, `false`, `undefined` or
   * `null` sends. A held-back recipient is recorded as `suppressed` and never sent, by no later run
   * (nor `resendUnknown`); a throw makes it `failed` (`SUPPRESS_FAILED`), nothing sent, asked again
   * by the next run.
   */
  suppress?: ((recipient: R, to: string) => Suppression | Promise<Suppression>) | undefined;
  /** The job's size, for progress events' `expected` when `recipients` is a stream (an array, Set or Map gives its own). */
  expected?: number | undefined;
}

/** What `suppress` answers: `true` or a reason to hold a recipient back; `false`, `undefined` or `null` to send. */
export type Suppression = boolean | string | null | undefined;

/** sendBulk's options, checked, with defaults. */
export interface BulkSettings<R> extends RowRules<R>, RunSettings {
  readonly id: string;
  readonly recipients: Iterable<R> | AsyncIterable<R>;
  readonly journal: BulkJournal;
  readonly resendUnknown: boolean;
  readonly suppress: ((recipient: R, to: string) => Suppression | Promise<Suppression>) | undefined;
  /** The job's size when known. */
  readonly expected: number | undefined;
}

const JOURNAL_METHODS = ['open', 'get', 'claim', 'put', 'delete', 'entries', 'close'];

/** Checks the client and options of `sendBulk`; a mistake is an `InvalidArgumentError`. */
export function checkBulkOptions<R>(client: BulkClient, options: SendBulkOptions<R>): BulkSettings<R> {
  if (!hasMethods((client as Partial<BulkClient> | undefined)?.messages, ['send'])) {
    throw new InvalidArgumentError('sendBulk(client, options): `client` must be a Variant1Client or Variant2Client.');
  }
  const { id, recipients, message, key, journal = memoryJournal() } = options;
  const fail = (what: string, value: unknown) => {
    throw new InvalidArgumentError(`sendBulk: \`${what}, got ${showValue(value)}.`);
  };
  if (typeof id !== 'string' || id === '') fail('id` must be a non-empty string', id);
  if (!isIterable(recipients)) fail('recipients` must be an iterable or async iterable', recipients);
  if (typeof message !== 'function') fail('message` must be a function of a recipient', message);
  if (key !== undefined && typeof key !== 'function') fail('key` must be a function of a recipient', key);
  if (!hasMethods(journal, JOURNAL_METHODS))
    fail('journal` must be memoryJournal(), fileJournal(path) or a BulkJournal', journal);
  const { suppress, expected } = options;
  if (suppress !== undefined && typeof suppress !== 'function')
    fail('suppress` must be a function of a recipient and its number', suppress);
  if (expected !== undefined && !(Number.isSafeInteger(expected) && expected >= 0))
    fail('expected` must be a whole number of recipients', expected);
  return {
    id,
    recipients,
    message,
    key,
    journal,
    ...checkRunOptions('sendBulk', options),
    resendUnknown: options.resendUnknown === true,
    suppress,
    expected: expected ?? sizeOf(recipients),
  };
}

/** The number of recipients of an array, a Set or a Map; undefined for a stream or a generator. */
function sizeOf(recipients: unknown): number | undefined {
  if (Array.isArray(recipients)) return recipients.length;
  return recipients instanceof Set || recipients instanceof Map ? recipients.size : undefined;
}
