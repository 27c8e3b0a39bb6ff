// One signed POST of an event to a URL, and what came back: what every delivery attempt does, and
// `bizmsg-mock emit` on its own. Redirects are not followed, the answer's body is read only in part.
import { SIGNATURE_HEADER } from '../../contract/webhooks.js';
import { concat } from '../../shared/bytes.js';
import { signWebhookAsync } from '../../webhooks/signature/sign-async.js';
import { DELIVERY_MARKER } from '../wire/delivery-mark.js';
import type { DeliveryAttempt } from './records.js';

/** How much of an endpoint's answer is read and kept. */
const RESPONSE_BODY_BYTES = 4096;

/** What one POST sent and what came back. */
export type PostedEvent = Pick<DeliveryAttempt, 'status' | 'response' | 'error' | 'request' | 'durationMs'> & {
  ok: boolean;
};

/**
 * POSTs `body` to `url`, signed with `secret`, through the global fetch (so it reaches real servers
 * and msw handlers alike). A 3xx is an answer, not followed (as GitHub and Stripe do not follow
 * them); no answer within `timeoutMs` is a time-out. `stop` (the mock closing, or reset) aborts it:
 * the connection ends at once, and the attempt is a network error that says so.
 */
export async function postEvent(
  url: string,
  body: string,
  secret: string,
  timeoutMs: number,
  stop?: AbortSignal,
): Promise<PostedEvent> {
  const headers = await signedHeaders(body, secret);
  const started = performance.now();
  const outcome = await post(url, headers, body, timeoutMs, stop);
  const { status } = outcome;
  return {
    ...outcome,
    ok: typeof status === 'number' && status >= 200 && status < 300,
    request: { headers, body },
    durationMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** The record of a delivery that was signed but not sent, and `why`: it counts as failed, as a network error does. */
export async function unsentEvent(body: string, secret: string, why: string): Promise<PostedEvent> {
  const headers = await signedHeaders(body, secret);
  return { status: 'network_error', response: null, error: why, ok: false, request: { headers, body }, durationMs: 0 };
}

async function signedHeaders(body: string, secret: string): Promise<Record<string, string>> {
  return {
    'content-type': 'application/json',
    'user-agent': 'bizmsg-mock',
    // Every route of a mock refuses it: no delivery can be led back to steer a mock, or loop.
    [DELIVERY_MARKER]: '1',
    // Signed on Web Crypto, which every runtime the mock runs on has (node:crypto is not everywhere).
    [SIGNATURE_HEADER]: await signWebhookAsync(body, secret),
  };
}

/** Why an attempt the mock's closing aborted got no answer. */
export const CLOSED_WHILE_UNDER_WAY = 'not answered: the mock was closed while the delivery was under way';
/** Why an attempt a reset aborted got no answer (the reason `stop` is aborted with). */
export const RESET_WHILE_UNDER_WAY = 'not answered: the mock was reset while the delivery was under way';

async function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  stop: AbortSignal | undefined,
): Promise<Pick<DeliveryAttempt, 'status' | 'response' | 'error'>> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const either = eitherAborts(timeout, stop);
  const { signal } = either;
  try {
    const response = await globalThis.fetch(url, { method: 'POST', headers, body, signal, redirect: 'manual' });
    // Browsers hide a redirect behind an opaque answer with status 0; Node gives the 3xx itself.
    if (response.type === 'opaqueredirect') return { status: 'redirect', response: null, error: null };
    const answer = { status: response.status, headers: headersOf(response), body: await bodyStart(response) };
    return { status: response.status, response: answer, error: null };
  } catch (error) {
    if (stop?.aborted === true)
      return {
        status: 'network_error',
        response: null,
        error: stop.reason === RESET_WHILE_UNDER_WAY ? RESET_WHILE_UNDER_WAY : CLOSED_WHILE_UNDER_WAY,
      };
    if (timeout.aborted) return { status: 'timeout', response: null, error: `no answer within ${timeoutMs} ms` };
    return { status: 'network_error', response: null, error: describeFetchError(error) };
  } finally {
    either.release();
  }
}

/**
 * A signal aborted when either `first` or `second` is, and the function that stops listening to
 * them (`stop` lives as long as the mock: a listener left on it per delivery would pile up).
 * Not `AbortSignal.any`: Node 20.0 to 20.2 lack it.
 */
function eitherAborts(
  first: AbortSignal,
  second: AbortSignal | undefined,
): { signal: AbortSignal; release: () => void } {
  if (second === undefined) return { signal: first, release: () => undefined };
  const either = new AbortController();
  const abort = () => either.abort();
  for (const signal of [first, second]) {
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  }
  return {
    signal: either.signal,
    release: () => {
      first.removeEventListener('abort', abort);
      second.removeEventListener('abort', abort);
    },
  };
}

function headersOf(response: Response): Record<string, string> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return headers;
}

/** The first 4 KiB of an answer's body, as text; the rest is not read (an endpoint may send a lot). */
async function bodyStart(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
  const text = new TextDecoder().decode(concat(chunks, size).subarray(0, RESPONSE_BODY_BYTES));
  return size > RESPONSE_BODY_BYTES ? `${text}…` : text;
}

/** A fetch failure in words: undici hides the socket's reason in `cause`. */
function describeFetchError(error: unknown): string {
  const cause = (error as { cause?: { message?: unknown; code?: unknown } } | undefined)?.cause;
  if (typeof cause?.message === 'string' && cause.message !== '') return cause.message;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
