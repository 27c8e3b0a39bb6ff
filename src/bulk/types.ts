// The words of a bulk send: what a caller gives (options, the message of a recipient) and what it
// gets back (one result per recipient, progress, the report).
import type {
  Variant1SendTemplateParams,
  Variant1SendTextParams,
  Variant2SendMessageParams,
} from '../schemas/message-params.js';

/** A send of a client: its body in, a message with an id out. */
type Send<B> = (body: B) => PromiseLike<{ readonly id: string }>;

/**
 * A `Variant2Client`, as bizmsg/bulk needs it. (Described by shape, so that a client from the
 * `bizmsg` entry fits however the two entries' type declarations are bundled.)
 */
export interface Variant2BulkClient {
  /** The client's messages: `send` is what a bulk send calls. */
  readonly messages: {
    /** `messages.send` of the client. */
    readonly send: Send<Variant2SendMessageParams>;
    /** `messages.sendText`, there to tell a Variant 2 client from a Variant 1 one. */
    readonly sendText: unknown;
  };
}

/** A `Variant1Client`, as bizmsg/bulk needs it. */
export interface Variant1BulkClient {
  /** The client's messages: `send` and `sendTemplate` are what a bulk send calls. */
  readonly messages: {
    /** `messages.send` of the client: a text. */
    readonly send: Send<Variant1SendTextParams>;
    /** `messages.sendTemplate` of the client: a template. */
    readonly sendTemplate: Send<Variant1SendTemplateParams>;
    /** `messages.status`, there to tell a Variant 1 client from a Variant 2 one. */
    readonly status: unknown;
  };
}

/** A client of either variant (`Variant1Client`, `Variant2Client`), as `sendBulk` and `createBulkWorker` take it. */
export type BulkClient = Variant1BulkClient | Variant2BulkClient;

/**
 * What `message(recipient)` returns for a client: Variant 2, the body of `messages.send`;
 * Variant 1, a text (`{ to, message }`, sent with `messages.send`) or a template
 * (`{ to, name, language, components }`, sent with `messages.sendTemplate`), told apart by `message`;
 * a client of either variant (a union), either.
 */
export type BulkMessage<C extends BulkClient = BulkClient> = [C] extends [Variant2BulkClient]
  ? Variant2SendMessageParams
  : [C] extends [Variant1BulkClient]
    ? Variant1SendTextParams | Variant1SendTemplateParams
    : Variant2SendMessageParams | Variant1SendTextParams | Variant1SendTemplateParams;

/**
 * How one recipient ended: sent, rejected for good, perhaps sent (never resent), a repeat of a
 * key, or held back by `suppress` (an opt-out: never sent, by no later run either).
 */
export type BulkStatus = 'sent' | 'failed' | 'unknown' | 'skipped' | 'suppressed';

/** Why a recipient failed or is unknown: the service's error code (or ours) and what happened. */
export interface BulkFailure {
  /**
   * The service's code (e.g. `INVALID_PHONE`), or bizmsg's: `INVALID_RECIPIENT`, `INTERRUPTED`,
   * `SUPPRESSED` (held back by `suppress`), `SUPPRESS_FAILED` (`suppress` threw), an error's name.
   */
  readonly code: string;
  /** What happened, the API key removed. */
  readonly message: string;
}

/** The outcome of one recipient. */
export interface BulkResult {
  /** The recipient's key: its number in E.164, unless `key(recipient)` said otherwise. */
  readonly key: string;
  /** The number the message was for, in E.164 when it is valid, else as given. */
  readonly to: string;
  /** How the recipient ended: `sent`, `failed`, `unknown` (perhaps sent: never resent), `skipped` (a repeat), `suppressed`. */
  readonly status: BulkStatus;
  /** The message's id, when it was sent. */
  readonly messageId?: string;
  /** Why it failed, is unknown, or was suppressed (`SUPPRESSED`, its message the reason). */
  readonly error?: BulkFailure;
}

/**
 * The report of a bulk job: `total` recipients read, each with one status (unless aborted first),
 * and each recipient's result. What a `sendBulk` run resolves with, and what `bulkReport` reads of
 * a job on BullMQ.
 */
export interface BulkReport {
  /** The job's id. */
  readonly id: string;
  /** Recipients read. */
  readonly total: number;
  /** Recipients whose message the service accepted. */
  readonly sent: number;
  /** Recipients the service refused for good, or that could not be sent (a bad number, `message` threw). */
  readonly failed: number;
  /** Recipients perhaps sent (no answer came): never resent, unless `resendUnknown` asks. */
  readonly unknown: number;
  /** Repeats of a key read earlier in the job: not sent again. */
  readonly skipped: number;
  /** Recipients held back by `suppress` (opted out): never sent. */
  readonly suppressed: number;
  /** Recipients enqueued on BullMQ and not yet ended (waiting, or being sent now); 0 for a `sendBulk` run, which waits for every send. */
  readonly pending: number;
  /** True when the signal stopped the run before every recipient was read (never for a job on BullMQ). */
  readonly aborted: boolean;
  /** Each recipient's result (a job on BullMQ: those ended so far), read from the journal or from Redis in batches. */
  results(): AsyncIterableIterator<BulkResult>;
}

/**
 * Where a running bulk send is: the report so far, the sends in flight, and how far it got
 * (`${p.done}/${p.expected}`: `total` counts the recipients read so far, and grows while it runs).
 */
export interface BulkProgress extends Omit<BulkReport, 'aborted' | 'pending' | 'results'> {
  /** Recipients being sent now. */
  readonly inFlight: number;
  /** Recipients with an outcome (sent, failed, unknown, skipped or suppressed). */
  readonly done: number;
  /**
   * The job's size when it is known: the `expected` option, else the length of an array or the
   * size of a Set or Map given as `recipients`; undefined for a stream or a generator.
   */
  readonly expected: number | undefined;
}
