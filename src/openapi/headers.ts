// The documents' rate-limit headers.
import type { JsonSchema } from '../contract/endpoints.js';

/** The rate-limit headers of spec section 8, without `required`. */
const DESCRIPTIONS: Record<string, JsonSchema> = {
  'X-RateLimit-Limit': {
    description: "Requests the key's plan allows per window (one minute).",
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'When the window resets, in Unix seconds.',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': { description: 'Seconds to wait before the next request.', schema: { type: 'integer', minimum: 0 } },
};

/** `components.headers`: each header as a response must carry it. */
export const HEADERS: Record<string, JsonSchema> = Object.fromEntries(
  Object.entries(DESCRIPTIONS).map(([name, header]) => [name, { ...header, required: true }]),
);

const RATE_LIMIT = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/**
 * The rate-limit headers of a response: required on successes; on errors sent only when they come
 * after the key was checked (the limiter's own 429s have them, a gateway's may not), so written
 * out as optional (OpenAPI cannot make a `$ref` optional).
 */
export function rateLimitHeaders(required: boolean): Record<string, JsonSchema> {
  return Object.fromEntries(
    RATE_LIMIT.map((name) => [name, required ? { $ref: `#/components/headers/${name}` } : DESCRIPTIONS[name]!]),
  );
}

/** `Retry-After`, required. */
export const RETRY_AFTER: Record<string, JsonSchema> = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };
