// How Variant 2 authenticates and wraps its bodies.
import { isRecord } from '../shared/guards.js';
import type { Protocol } from '../core/call/http-client.js';

/** Variant 2: bearer authentication; bodies are `{data, meta?}` or the bare payload. */
export const variant2Protocol: Protocol = {
  name: 'Variant 2',
  authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
  unwrap: (body) =>
    isRecord(body) && 'data' in body ? { data: body.data, meta: body.meta } : { data: body, meta: undefined },
};
