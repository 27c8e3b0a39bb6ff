import type { IncomingMessage, ServerResponse } from 'node:http';

/** Answers any request with the body and headers of the mock's GET /account/me. */
export function floorAnswer(request: IncomingMessage, response: ServerResponse): void;
