import type { RateLimitSnapshot } from '../rate-limit/headers.js';

/**
 * Brand shared by every copy of the package (ESM, CJS, two versions in one tree), so that
 * `instanceof` and `X.is()` work on an error thrown by another copy.
 */
const KINDS = Symbol.for('bizmsg.error.kinds');

/** A class in the chain from a concrete error class up to `Error`. */
type ErrorClass = abstract new (...args: never[]) => Error;

/** Base class of every error this package throws. */
export class BizMsgError extends Error {
  /** The `name` of every class this error is an instance of, most general first. */
  declare readonly [KINDS]: readonly string[];

  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    const kinds: string[] = [];
    for (let c: ErrorClass = new.target; c !== Error; c = Object.getPrototypeOf(c) as ErrorClass) {
      kinds.unshift((c.prototype as Error).name);
    }
    Object.defineProperty(this, KINDS, { value: Object.freeze(kinds) });
  }

  /** The class's name, e.g. `"ValidationError"`; it is also what `instanceof` and `is()` compare. */
  override get name(): string {
    return 'BizMsgError';
  }

  /** True when `value` is an instance of this class, from any copy of the package. */
  static is<T extends abstract new (...args: never[]) => BizMsgError>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    return hasKind(value, (this as unknown as typeof BizMsgError).prototype.name);
  }

  /** Makes `instanceof` work across two copies of the package (ESM and CJS, or two versions). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasKind(value, this.prototype.name);
  }

  /** A plain object for logs and JSON: everything but the stack. */
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message };
  }
}

function hasKind(value: unknown, kind: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const kinds = (value as { [KINDS]?: unknown })[KINDS];
  return Array.isArray(kinds) && kinds.includes(kind);
}

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

/** An argument or client option is invalid; nothing was sent. */
export class InvalidArgumentError extends BizMsgError {
  override get name(): string {
    return 'InvalidArgumentError';
  }
}

/** What an `ApiError` is built from. */
export interface ApiErrorInit {
  status: number;
  code: string;
  message: string;
  details: Record<string, unknown>;
  headers: Headers;
  method: string;
  path: string;
  /** Set when this or an earlier attempt may have taken effect on the service. */
  mayHaveBeenProcessed?: boolean;
  /** Why the flag is set, appended to the message (e.g. "an earlier attempt may have been processed"). */
  processedNote?: string;
}

/** The service answered with an error status. */
export class ApiError extends BizMsgError {
  /** HTTP status of the response. */
  readonly status: number;
  /** Error code from the envelope, e.g. `VALIDATION_ERROR`. */
  readonly code: string;
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

/** VALIDATION_ERROR: invalid request parameters; `details` maps a field to its messages. */
export class ValidationError extends ApiError {
  declare readonly details: Record<string, string[]>;
  override get name(): string {
    return 'ValidationError';
  }
}
/** INVALID_PHONE: the phone number is not in a valid format. */
export class InvalidPhoneError extends ApiError {
  override get name(): string {
    return 'InvalidPhoneError';
  }
}
/** TEMPLATE_NOT_FOUND: the template does not exist. */
export class TemplateNotFoundError extends ApiError {
  override get name(): string {
    return 'TemplateNotFoundError';
  }
}
/** AUTHENTICATION_ERROR: the API key is missing or invalid. */
export class AuthenticationError extends ApiError {
  override get name(): string {
    return 'AuthenticationError';
  }
}
/** KEY_REVOKED: the API key was revoked. */
export class KeyRevokedError extends ApiError {
  override get name(): string {
    return 'KeyRevokedError';
  }
}
/** INSUFFICIENT_PERMISSIONS: the API key lacks the scope this endpoint needs. */
export class InsufficientPermissionsError extends ApiError {
  override get name(): string {
    return 'InsufficientPermissionsError';
  }
}
/** PLAN_LIMIT_EXCEEDED: the account's plan limit is reached. */
export class PlanLimitExceededError extends ApiError {
  override get name(): string {
    return 'PlanLimitExceededError';
  }
}
/** RESOURCE_NOT_FOUND: the resource does not exist. */
export class ResourceNotFoundError extends ApiError {
  override get name(): string {
    return 'ResourceNotFoundError';
  }
}
/** RATE_LIMIT_EXCEEDED: too many requests; retries were used up or the wait was too long. */
export class RateLimitExceededError extends ApiError {
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
  override get name(): string {
    return 'InternalError';
  }
}
/** MESSAGING_ERROR: the upstream messaging channel returned an error. */
export class MessagingError extends ApiError {
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

/** One problem found while validating a response body. */
export interface ResponseIssue {
  /** Where in the payload, e.g. `['data', 0, 'phone']`. */
  readonly path: readonly PropertyKey[];
  /** zod's issue code, e.g. `invalid_type`. */
  readonly code: string;
  /** What was expected there. */
  readonly message: string;
}

type ApiErrorClass = typeof ApiError;

/** Error class for each code of the spec. */
export const errorClassByCode: Readonly<Record<string, ApiErrorClass>> = {
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
