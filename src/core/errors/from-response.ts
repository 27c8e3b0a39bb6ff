// The typed error of an error response: the class its code names, from either variant's envelope.
import { CODE_IMPLIED_BY_STATUS } from '../../contract/error-codes.js';
import { isRecord } from '../../shared/guards.js';
import type { MessageCompleter } from '../wire/call.js';
import type { RateLimitSnapshot } from '../wire/headers.js';
import { ApiError, type ApiErrorInit, errorClassByCode, RateLimitExceededError } from './classes.js';
import { redactBody, redactText, redactValue } from './redact.js';

/** The request an error response answered, as the error reports it, and what completes its message. */
type Answered = Pick<ApiErrorInit, 'method' | 'path' | 'mayHaveBeenProcessed' | 'processedNote'> & {
  completeMessage?: MessageCompleter | undefined;
};

/**
 * The typed error for an error response. Its code, and so its class, is read from the body as it
 * came; what the error keeps and shows (message, details, a snippet of the body) has every whole
 * occurrence of `secret` removed. `response.headers` must already be clean.
 */
export function errorFromResponse(
  response: { status: number; statusText: string; headers: Headers },
  body: string,
  request: Answered,
  rateLimit: RateLimitSnapshot | undefined,
  retryAfter: number | undefined,
  secret = '',
): ApiError {
  const envelope = readErrorEnvelope(body);
  const code = envelope.code ?? CODE_IMPLIED_BY_STATUS[response.status] ?? `HTTP_${response.status}`;
  const { completeMessage, ...answered } = request;
  const message =
    envelope.message === undefined
      ? describeBody(response, redactBody(body, secret))
      : redactText(envelope.message, secret);
  const init: ApiErrorInit = {
    status: response.status,
    code,
    message: completeMessage === undefined ? message : completeMessage(code, message),
    details: redactValue(envelope.details ?? {}, secret) as Record<string, unknown>,
    headers: response.headers,
    ...answered,
  };
  const ErrorClass = hasClass(code) ? errorClassByCode[code] : undefined;
  if (ErrorClass === RateLimitExceededError) return new RateLimitExceededError(init, rateLimit, retryAfter);
  return new (ErrorClass ?? ApiError)(init, rateLimit);
}

/** An own-property check: a code such as "constructor" must not find Object.prototype's. */
function hasClass(code: string): code is keyof typeof errorClassByCode {
  return Object.hasOwn(errorClassByCode, code);
}

interface ErrorEnvelope {
  code?: string;
  message?: string;
  details?: Record<string, unknown>;
}

/** Reads `{error: {code, message, details}}`, with or without `success: false`. */
function readErrorEnvelope(body: string): ErrorEnvelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (!isRecord(parsed)) return {};
  const error = parsed.error;
  if (typeof error === 'string') return { message: error };
  const source = isRecord(error) ? error : parsed;
  return {
    code: typeof source.code === 'string' && source.code !== '' ? source.code : undefined,
    message: typeof source.message === 'string' ? source.message : undefined,
    details: isRecord(source.details) ? source.details : undefined,
  };
}

const SNIPPET_LENGTH = 200;

function describeBody(response: { status: number; statusText: string; headers: Headers }, body: string): string {
  const type = response.headers.get('content-type') ?? 'no content type';
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (body.trim() === '') return `${status} with an empty body`;
  const text = body.replace(/\s+/g, ' ').trim();
  const snippet = text.length > SNIPPET_LENGTH ? `${text.slice(0, SNIPPET_LENGTH)}…` : text;
  return `${status} without an error envelope (${type}): ${snippet}`;
}
