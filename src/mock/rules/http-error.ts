import { BODY_LIMITS } from '../options.js';

/** An error answer of the mock: a spec code, its status and the details of the envelope. */
export class MockHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
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
  return new MockHttpError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${BODY_LIMITS.maxBytes} bytes.`, {
    body: [`must be at most ${BODY_LIMITS.maxBytes} bytes`],
  });
}

/** 404 RESOURCE_NOT_FOUND for a missing resource. */
export function notFound(what: string, id: string): MockHttpError {
  return new MockHttpError(404, 'RESOURCE_NOT_FOUND', `${what} ${id} does not exist.`);
}
