// The documents' error responses: each code with its status and typed details, in the variant's envelope.
import { BODY_LIMITS } from '../contract/limits.js';
import type { JsonSchema } from '../contract/endpoints.js';
import { statusOfCode, type ErrorCode } from '../contract/error-codes.js';
import type { Variant } from '../contract/variant.js';
import { ERROR_DETAILS, FIELD_ERRORS } from './error-details.js';
import { rateLimitHeaders, RETRY_AFTER } from './headers.js';

/** A code in PascalCase: `PLAN_LIMIT_EXCEEDED` -> `PlanLimitExceeded`. */
function pascal(code: ErrorCode): string {
  return code.toLowerCase().replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** The component schema of a code's error object, named as bizmsg's error class: `PlanLimitExceededError`, `InternalError`. */
function errorSchemaName(code: ErrorCode): string {
  return code.endsWith('_ERROR') ? pascal(code) : `${pascal(code)}Error`;
}

/** The error object of one code: `{ code, message, details }` with that code's details. */
function errorSchema(code: ErrorCode, variant: Variant): JsonSchema {
  return {
    type: 'object',
    description: `\`${code}\`: ${describe(code, variant)}.`,
    required: ['code', 'message', 'details'],
    properties: {
      code: { type: 'string', const: code },
      message: { type: 'string', description: 'What went wrong, for people; never contains the API key.' },
      details: ERROR_DETAILS[code],
    },
  };
}

/**
 * The error envelope of a variant around the error object of one of `codes`: several codes at
 * one status are a choice told apart by `code`, so a generated client narrows `details` by it.
 */
function envelope(variant: Variant, codes: readonly ErrorCode[]): JsonSchema {
  const refs = codes.map((code) => ({ $ref: `#/components/schemas/${errorSchemaName(code)}` }));
  const error: JsonSchema =
    codes.length === 1
      ? refs[0]!
      : {
          oneOf: refs,
          discriminator: {
            propertyName: 'code',
            mapping: Object.fromEntries(codes.map((code, i) => [code, refs[i]!.$ref])),
          },
        };
  if (variant === 2) return { type: 'object', required: ['error'], properties: { error } };
  return {
    type: 'object',
    required: ['success', 'error'],
    properties: { success: { type: 'boolean', const: false }, error },
  };
}

/** `components.responses` names: the codes in PascalCase, joined by `Or`. */
function responseName(codes: readonly ErrorCode[]): string {
  return codes.map(pascal).join('Or');
}

/** Error responses, shared through `components.responses`, and the error objects they carry. */
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

  /** The component schemas of every code's error object, and of the field map their details share. */
  get schemas(): Record<string, JsonSchema> {
    const codes = Object.keys(ERROR_DETAILS) as ErrorCode[];
    return {
      FieldErrors: FIELD_ERRORS,
      ...Object.fromEntries(codes.map((code) => [errorSchemaName(code), errorSchema(code, this.#variant)])),
    };
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
    return {
      description: `${description}.`,
      ...(headers === undefined ? {} : { headers }),
      content: { 'application/json': { schema: envelope(this.#variant, codes) } },
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
