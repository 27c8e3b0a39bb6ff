// How Variant 1 authenticates and wraps its bodies.
import { isRecord } from '../shared/guards.js';
import type { Protocol } from '../core/call/http-client.js';

/** Variant 1: `X-API-Key` header; success bodies are `{success: true, data, meta?}`. */
export const variant1Protocol: Protocol = {
  name: 'Variant 1',
  authHeaders: (apiKey) => ({ 'x-api-key': apiKey }),
  unwrap: (body) =>
    isRecord(body) && body.success === true && 'data' in body ? { data: body.data, meta: body.meta } : undefined,
};
