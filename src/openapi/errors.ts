// The documents' error responses: each code with its status, in the variant's envelope.
import { BODY_LIMITS } from '../contract/limits.js';
import type { JsonSchema } from '../contract/endpoints.js';
import { statusOfCode, type ErrorCode } from '../contract/error-codes.js';
import type { Variant } from '../contract/variant.js';
import { rateLimitHeaders, RETRY_AFTER } from './headers.js';

/** The error envelope of a variant around the error object, its `code` one of `codes`. */
function envelope(variant: Variant, codes: readonly ErrorCode[], validation: boolean): JsonSchema {
  const error: JsonSchema = {
    type: 'object',
    required: ['code', 'message', 'details'],
    properties: {
      code: codes.length === 1 ? { const: codes[0] } : { enum: [...codes] },
      message: { type: 'string', description: 'What went wrong, for people; never contains the API key.' },
      details: validation
        ? {
            type: 'object',
            description: 'Each field at fault, with what is wrong with it.',
            additionalProperties: { type: 'array', items: { type: 'string' } },
          }
        : { type: 'object', description: 'More about the error; `{}` when there is nothing more.' },
    },
  };
  if (variant === 2) return { type: 'object', required: ['error'], properties: { error } };
  return { type: 'object', required: ['success', 'error'], properties: { success: { const: false }, error } };
}

/** `components.responses` names: the codes in PascalCase, joined by `Or`. */
function responseName(codes: readonly ErrorCode[]): string {
  return codes
    .map((code) => code.toLowerCase().replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase()))
    .join('Or');
}

/** Error responses, shared through `components.responses`. */
export class ErrorResponses {
  readonly #variant: Variant;
  readonly #responses: Record<string, JsonSchema> = {};

  constructor(variant: Variant) {
    this.#variant = variant;
  }

  /** `components.responses`: every error response used so far. */
  get components(): Record<string, JsonSchema> {
    return this.#responses;
  }

  /** The error responses of an operation answering with `codes`, by status. */
  byStatus(codes: readonly ErrorCode[]): Record<string, JsonSchema> {
    const groups = new Map<number, ErrorCode[]>();
    for (const code of codes) {
      const status = statusOfCode(code, this.#variant);
      groups.set(status, [...(groups.get(status) ?? []), code]);
    }
    const responses: Record<string, JsonSchema> = {};
    for (const [status, group] of [...groups].sort(([a], [b]) => a - b))
      responses[String(status)] = this.#ref(status, group);
    return responses;
  }

  #ref(status: number, codes: readonly ErrorCode[]): JsonSchema {
    const name = responseName(codes);
    this.#responses[name] ??= this.#response(status, codes);
    return { $ref: `#/components/responses/${name}` };
  }

  #response(status: number, codes: readonly ErrorCode[]): JsonSchema {
    const description = codes.map((code) => `\`${code}\`: ${describe(code, this.#variant)}`).join('; ');
    // Before the key is checked there is no window to report: a 401, and a 413 refused on its Content-Length.
    // A 429 from in front of the limiter (a gateway; the mock's injected faults) carries Retry-After alone.
    const headers =
      status === 429
        ? { ...RETRY_AFTER, ...rateLimitHeaders(false) }
        : status === 401 || status === 413
          ? undefined
          : rateLimitHeaders(false);
    const validation =
      codes.includes('VALIDATION_ERROR') || codes.includes('INVALID_PHONE') || codes.includes('TEMPLATE_NOT_FOUND');
    return {
      description: `${description}.`,
      ...(headers === undefined ? {} : { headers }),
      content: { 'application/json': { schema: envelope(this.#variant, codes, validation) } },
    };
  }
}

/** What each code means (spec section 7; PAYLOAD_TOO_LARGE is bizmsg's). */
const MEANINGS: Readonly<Record<ErrorCode, string>> = {
  VALIDATION_ERROR: 'invalid request parameters, e.g. a required field missing',
  INVALID_PHONE: 'invalid phone number format',
  TEMPLATE_NOT_FOUND: 'template does not exist',
  AUTHENTICATION_ERROR: 'invalid or missing API key',
  KEY_REVOKED: 'API key revoked',
  INSUFFICIENT_PERMISSIONS: 'key lacks required scope',
  PLAN_LIMIT_EXCEEDED: 'plan limit reached',
  RESOURCE_NOT_FOUND: 'resource does not exist',
  PAYLOAD_TOO_LARGE: 'request body over the size limit',
  RATE_LIMIT_EXCEEDED: 'too many requests',
  INTERNAL_ERROR: 'unexpected server error',
  MESSAGING_ERROR: 'the upstream messaging channel returned an error',
};

/** What a code means, and what bizmsg decided where the spec leaves it open. */
function describe(code: ErrorCode, variant: Variant): string {
  const meaning = MEANINGS[code];
  switch (code) {
    case 'VALIDATION_ERROR':
      return `${meaning}; \`details\` maps each field to its messages (${statusOfCode(code, variant)} in Variant ${variant})`;
    case 'RESOURCE_NOT_FOUND':
      return `${meaning}; also a method the path does not have, with the path's methods in an \`Allow\` header and \`details.allowed_methods\` (bizmsg's choice: the spec has no 405)`;
    case 'PAYLOAD_TOO_LARGE':
      return `${meaning} of ${BODY_LIMITS.maxBytes} bytes (one nested deeper than ${BODY_LIMITS.maxDepth} levels is a VALIDATION_ERROR); not in the spec's table: bizmsg added it, and closes the connection after the answer`;
    case 'INSUFFICIENT_PERMISSIONS':
      return `${meaning}; \`details.required_scope\` names it`;
    case 'RATE_LIMIT_EXCEEDED':
      return `${meaning}; wait \`Retry-After\` seconds`;
    default:
      return meaning;
  }
}
