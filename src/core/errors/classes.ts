// The errors the clients throw: API errors, one class per spec code, and the failures that are not
// HTTP answers. Their base, BizMsgError, is in shared/ (every entry throws it).
import type { ErrorCode, SpecErrorCode } from '../../contract/error-codes.js';
import type { OpenEnum } from '../../schemas/common.js';
import { issueText, type ZodIssueLike } from '../../shared/describe.js';
import { BizMsgError } from '../../shared/errors.js';
import type { RateLimitSnapshot } from '../wire/headers.js';

/** The caller's `AbortSignal` aborted the request or its wait; `cause` is the signal's reason. */
export class AbortError extends BizMsgError {
  override get name(): string {
    return 'AbortError';
  }
}

/** One of the `hooks` given in the client options threw; `cause` is what it threw. */
export class HookError extends BizMsgError {
  /** Which hook: `beforeRequest`, `beforeRetry`, `afterResponse` or `beforeError`. */
  readonly hook: string;

  /** `thrown`: a description of what the hook threw, secrets already removed. */
  constructor(hook: string, thrown: string, options: ErrorOptions) {
    super(`A hook in the client options (${hook}) threw: ${thrown}`, options);
    this.hook = hook;
  }

  override get name(): string {
    return 'HookError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), hook: this.hook };
  }
}

/** What an `ApiError` is built from. */
export interface ApiErrorInit {
  status: number;
  code: OpenEnum<ErrorCode>;
  message: string;
  details: Record<string, unknown>;
  headers: Headers;
  method: string;
  path: string;
  /** Set when this or an earlier attempt may have been processed by the service. */
  mayHaveBeenProcessed?: boolean;
  /** Why the flag is set, appended to the message (e.g. "an earlier attempt may have been processed"). */
  processedNote?: string;
}

/** The service answered with an error status. */
export class ApiError extends BizMsgError {
  /** HTTP status of the response. */
  readonly status: number;
  /** Error code from the envelope, e.g. `VALIDATION_ERROR`; a code newer than this package comes as it is. */
  readonly code: OpenEnum<ErrorCode>;
  /** `details` from the envelope; for validation errors, field name to messages. */
  readonly details: Record<string, unknown>;
  /** Headers of the response. */
  readonly headers: Headers;
  /** `X-RateLimit-*` values of the response, when present. */
  readonly rateLimit: RateLimitSnapshot | undefined;
  /** HTTP method of the failed request. */
  readonly method: string;
  /** Path of the failed request, relative to the base URL. */
  readonly path: string;
  /**
   * True when this request or an earlier attempt of it may have taken effect on the service
   * (a POST that was not retried, or a PUT/DELETE whose earlier attempt timed out): check
   * before sending it again.
   */
  readonly mayHaveBeenProcessed: boolean;

  constructor(init: ApiErrorInit, rateLimit?: RateLimitSnapshot) {
    super(describe(init));
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.headers = init.headers;
    this.rateLimit = rateLimit;
    this.method = init.method;
    this.path = init.path;
    this.mayHaveBeenProcessed = init.mayHaveBeenProcessed ?? false;
  }

  override get name(): string {
    return 'ApiError';
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      code: this.code,
      details: this.details,
      method: this.method,
      path: this.path,
      rateLimit: this.rateLimit,
      mayHaveBeenProcessed: this.mayHaveBeenProcessed,
    };
  }
}

function describe(init: ApiErrorInit): string {
  const base = `${init.method} ${init.path} failed with ${init.status} ${init.code}: ${init.message}`;
  return init.processedNote === undefined ? base : `${base} (${init.processedNote})`;
}

/**
 * VALIDATION_ERROR: invalid request parameters; `details` maps a field to its messages. The
 * message names each field with its reasons (`… (phone: is required)`), so a log line that keeps
 * only `String(error)` still says what was wrong.
 */
export class ValidationError extends ApiError {
  declare readonly code: 'VALIDATION_ERROR';
  declare readonly details: Record<string, string[]>;

  constructor(init: ApiErrorInit, rateLimit?: RateLimitSnapshot) {
    super({ ...init, message: withReasons(init.message, init.details) }, rateLimit);
  }

  override get name(): string {
    return 'ValidationError';
  }
}

/** How many characters of reasons a validation error's message carries; `details` keeps them all. */
const REASONS_SHOWN = 500;

/** `message` followed by each field of `details` with its reasons, those it does not already say. */
function withReasons(message: string, details: Record<string, unknown>): string {
  const listed = Object.entries(details)
    .flatMap(([field, reasons]) => {
      const unsaid = [reasons].flat().filter((r): r is string => typeof r === 'string' && !message.includes(r));
      return unsaid.length === 0 ? [] : [`${field}: ${unsaid.join(', ')}`];
    })
    .join('; ');
  if (listed === '') return message;
  return `${message} (${listed.length > REASONS_SHOWN ? `${listed.slice(0, REASONS_SHOWN)}…` : listed})`;
}

/** INVALID_PHONE: the phone number is not in a valid format. */
export class InvalidPhoneError extends ApiError {
  declare readonly code: 'INVALID_PHONE';
  override get name(): string {
    return 'InvalidPhoneError';
  }
}
/** TEMPLATE_NOT_FOUND: the template does not exist. */
export class TemplateNotFoundError extends ApiError {
  declare readonly code: 'TEMPLATE_NOT_FOUND';
  override get name(): string {
    return 'TemplateNotFoundError';
  }
}
/** AUTHENTICATION_ERROR: the API key is missing or invalid. */
export class AuthenticationError extends ApiError {
  declare readonly code: 'AUTHENTICATION_ERROR';
  override get name(): string {
    return 'AuthenticationError';
  }
}
/** KEY_REVOKED: the API key was revoked. */
export class KeyRevokedError extends ApiError {
  declare readonly code: 'KEY_REVOKED';
  override get name(): string {
    return 'KeyRevokedError';
  }
}
/** INSUFFICIENT_PERMISSIONS: the API key lacks the scope this endpoint needs. */
export class InsufficientPermissionsError extends ApiError {
  declare readonly code: 'INSUFFICIENT_PERMISSIONS';
  override get name(): string {
    return 'InsufficientPermissionsError';
  }
}
/** PLAN_LIMIT_EXCEEDED: the account's plan limit is reached. */
export class PlanLimitExceededError extends ApiError {
  declare readonly code: 'PLAN_LIMIT_EXCEEDED';
  override get name(): string {
    return 'PlanLimitExceededError';
  }
}
/** RESOURCE_NOT_FOUND: the resource does not exist. */
export class ResourceNotFoundError extends ApiError {
  declare readonly code: 'RESOURCE_NOT_FOUND';
  override get name(): string {
    return 'ResourceNotFoundError';
  }
}
/** RATE_LIMIT_EXCEEDED: too many requests; retries were used up or the wait was too long. */
export class RateLimitExceededError extends ApiError {
  declare readonly code: 'RATE_LIMIT_EXCEEDED';
  /** Seconds the service asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit, rateLimit?: RateLimitSnapshot, retryAfter?: number) {
    super(init, rateLimit);
    this.retryAfter = retryAfter;
  }

  override get name(): string {
    return 'RateLimitExceededError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfter: this.retryAfter };
  }
}
/** INTERNAL_ERROR: unexpected server error. */
export class InternalError extends ApiError {
  declare readonly code: 'INTERNAL_ERROR';
  override get name(): string {
    return 'InternalError';
  }
}
/** MESSAGING_ERROR: the upstream messaging channel returned an error. */
export class MessagingError extends ApiError {
  declare readonly code: 'MESSAGING_ERROR';
  override get name(): string {
    return 'MessagingError';
  }
}

/** The request could not be completed at the network level. */
export class ConnectionError extends BizMsgError {
  /**
   * True when the request (or an earlier attempt of it) may have reached the service and taken
   * effect before the connection failed: check before sending it again.
   */
  readonly mayHaveBeenProcessed: boolean;

  constructor(message: string, mayHaveBeenProcessed: boolean, options?: ErrorOptions) {
    super(message, options);
    this.mayHaveBeenProcessed = mayHaveBeenProcessed;
  }

  override get name(): string {
    return 'ConnectionError';
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), mayHaveBeenProcessed: this.mayHaveBeenProcessed };
  }
}

/** An attempt took longer than the `timeout` option. */
export class TimeoutError extends ConnectionError {
  override get name(): string {
    return 'TimeoutError';
  }
}

/** Where a `ResponseValidationError` came from. */
interface ResponseValidationContext {
  /** HTTP status of the response. */
  status: number;
  /** True when the request may have taken effect on the service. */
  mayHaveBeenProcessed: boolean;
}

/** One problem found while validating a response body. */
export interface ResponseIssue {
  /** Where in the payload, e.g. `['data', 0, 'phone']`. */
  readonly path: readonly PropertyKey[];
  /** zod's issue code, e.g. `invalid_type`. */
  readonly code: string;
  /** What was expected there. */
  readonly message: string;
}

/** A zod issue with a message that says what was expected. */
export function describeIssue(issue: ZodIssueLike): ResponseIssue {
  return { path: issue.path, code: issue.code, message: issueText(issue) };
}

/** A successful response whose body does not fit the expected shape. */
export class ResponseValidationError extends BizMsgError {
  /** The zod issues, each with a `path` into the body. */
  readonly issues: readonly ResponseIssue[];
  /** The raw response body, as text (the API key removed). */
  readonly body: string;
  /** HTTP status of the response (a 2xx). */
  readonly status: number;
  /**
   * True when the request has an effect (POST, PUT, DELETE): the service answered with
   * success, so the message was most likely sent or the contact changed, even though the
   * answer could not be read. Do not send it again blindly.
   */
  readonly mayHaveBeenProcessed: boolean;

  /** @internal The clients throw these; `context` says which call and attempt the body came from. */
  constructor(message: string, issues: readonly ResponseIssue[], body: string, context: ResponseValidationContext) {
    super(message);
    this.issues = issues;
    this.body = body;
    this.status = context.status;
    this.mayHaveBeenProcessed = context.mayHaveBeenProcessed;
  }

  override get name(): string {
    return 'ResponseValidationError';
  }

  override toJSON(): Record<string, unknown> {
    return {
      ...super.toJSON(),
      status: this.status,
      mayHaveBeenProcessed: this.mayHaveBeenProcessed,
      issues: this.issues,
      body: this.body,
    };
  }
}

type ApiErrorClass = typeof ApiError;

/** Error class for each code of the spec: a code missing here, or one the spec does not have, is a compile error. */
export const errorClassByCode: Readonly<Record<SpecErrorCode, ApiErrorClass>> = {
  VALIDATION_ERROR: ValidationError,
  INVALID_PHONE: InvalidPhoneError,
  TEMPLATE_NOT_FOUND: TemplateNotFoundError,
  AUTHENTICATION_ERROR: AuthenticationError,
  KEY_REVOKED: KeyRevokedError,
  INSUFFICIENT_PERMISSIONS: InsufficientPermissionsError,
  PLAN_LIMIT_EXCEEDED: PlanLimitExceededError,
  RESOURCE_NOT_FOUND: ResourceNotFoundError,
  RATE_LIMIT_EXCEEDED: RateLimitExceededError,
  INTERNAL_ERROR: InternalError,
  MESSAGING_ERROR: MessagingError,
};
