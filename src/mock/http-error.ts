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

/** 404 RESOURCE_NOT_FOUND for a missing resource. */
export function notFound(what: string, id: string): MockHttpError {
  return new MockHttpError(404, 'RESOURCE_NOT_FOUND', `${what} ${id} does not exist.`);
}
