// An error answer of the mock: a code of the table, whose status the variant gives, and its details.
import { BODY_LIMITS } from '../../contract/limits.js';
import { statusOfCode, type ErrorCode } from '../../contract/error-codes.js';
import type { Variant } from '../../contract/variant.js';
import type { OpenEnum } from '../../schemas/common.js';

/**
 * An error answer of the mock. Its status follows from its code in the variant served (a wrong
 * code is a compile error, and no throw site can pair a code with the wrong status); only an
 * injected fault carries a status and code of the test's choosing.
 */
export class MockHttpError extends Error {
  readonly code: OpenEnum<ErrorCode>;
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;
  #status: number | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    details: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /** The answer of an injected fault: any error status, with any code (the test's choice). */
  static fault(status: number, code: string, headers: Record<string, string>): MockHttpError {
    const error = new MockHttpError(code as ErrorCode, `Injected fault: ${status}.`, {}, headers);
    error.#status = status;
    return error;
  }

  /** The HTTP status of this answer in `variant`. */
  statusIn(variant: Variant): number {
    return this.#status ?? statusOfCode(this.code as ErrorCode, variant);
  }
}

/** Signals that the connection should fail (an injected network error). */
export class MockNetworkError extends Error {
  constructor() {
    super('Injected network error');
  }
}

/** 413 PAYLOAD_TOO_LARGE for a body over the limit (a status and code the spec's table does not have: see docs/decisions.md). */
export function payloadTooLarge(): MockHttpError {
  return new MockHttpError('PAYLOAD_TOO_LARGE', `The request body is larger than ${BODY_LIMITS.maxBytes} bytes.`, {
    body: [`must be at most ${BODY_LIMITS.maxBytes} bytes`],
  });
}

/** 404 RESOURCE_NOT_FOUND for a missing resource. */
export function notFound(what: string, id: string): MockHttpError {
  return new MockHttpError('RESOURCE_NOT_FOUND', `${what} ${id} does not exist.`);
}
