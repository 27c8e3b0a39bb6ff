// Sending one bulk message and naming its outcome: sent, failed for good (nothing was processed),
// unknown (it may have been processed, so it is never sent again unless asked), or unsent (it
// never reached the service, or the service refused the sender: the job stops, and a later run
// sends it).
import { AbortError, ApiError, ConnectionError } from '../core/errors/classes.js';
import { waitOutRateLimits } from '../runs/rate-refusals.js';
import type { Message } from '../schemas/message.js';
import { InvalidArgumentError } from '../shared/errors.js';
import type { BulkClient, BulkFailure, BulkMessage } from './types.js';

/** How a send ended. */
export type SendOutcome =
  | { readonly status: 'sent'; readonly messageId: string }
  | { readonly status: 'failed' | 'unknown'; readonly error: BulkFailure };

/**
 * A send that was not processed and stops the job: the signal stopped a wait for the rate limit
 * (`cause` undefined), the service could not be reached at all (`cause`: the `ConnectionError`), or
 * it refused the key or the account (`cause`: the `ApiError`).
 */
export interface Unsent {
  readonly status: 'unsent';
  readonly cause: unknown;
}

/**
 * The codes that refuse whoever sends (a wrong or revoked key, a missing scope, the plan's limit)
 * rather than the recipient: the job stops, and a run with the key or plan put right sends the row.
 */
const REFUSES_THE_SENDER: ReadonlySet<string> = new Set([
  'AUTHENTICATION_ERROR',
  'KEY_REVOKED',
  'INSUFFICIENT_PERMISSIONS',
  'PLAN_LIMIT_EXCEEDED',
]);

/**
 * Sends `body` once. A 429 the client gave up waiting out (its retries used up) was not processed,
 * so it is waited out and sent again, until `signal` aborts.
 */
export async function sendOne(
  client: BulkClient,
  body: BulkMessage,
  signal?: AbortSignal,
): Promise<SendOutcome | Unsent> {
  try {
    const message = await waitOutRateLimits(() => dispatch(client, body), signal);
    return { status: 'sent', messageId: message.id };
  } catch (error) {
    if (AbortError.is(error)) return { status: 'unsent', cause: undefined };
    // The client already retried a refused connection: the service is out of reach for now.
    if (ConnectionError.is(error) && !error.mayHaveBeenProcessed) return { status: 'unsent', cause: error };
    // The key or the account was refused, not the recipient: every later send would be refused alike.
    if (ApiError.is(error) && REFUSES_THE_SENDER.has(String(error.code)) && !error.mayHaveBeenProcessed)
      return { status: 'unsent', cause: error };
    return outcomeOf(error);
  }
}

/** Variant 2 and Variant 1 texts go to `messages.send`, Variant 1 templates (no `message`) to `sendTemplate`. */
function dispatch(client: BulkClient, body: BulkMessage): PromiseLike<Message> {
  const messages = client.messages as unknown as Record<
    'send' | 'sendTemplate',
    (body: BulkMessage) => PromiseLike<Message>
  >;
  return 'message' in body || 'type' in body ? messages.send(body) : messages.sendTemplate(body);
}

/** The outcome of a send that threw: failed only when the error says nothing was processed. */
export function outcomeOf(error: unknown): SendOutcome {
  const message = error instanceof Error ? error.message : String(error);
  if (InvalidArgumentError.is(error)) return { status: 'failed', error: { code: 'INVALID_RECIPIENT', message } };
  if (ApiError.is(error) && error.status < 500 && !error.mayHaveBeenProcessed) {
    return { status: 'failed', error: { code: String(error.code), message } };
  }
  const code = ApiError.is(error) ? String(error.code) : error instanceof Error ? error.name : 'UNKNOWN';
  return { status: 'unknown', error: { code, message } };
}
