// What the `details` of each error code carry, as the documents declare them (and the mock sends them).
import type { JsonSchema } from '../contract/endpoints.js';
import type { ErrorCode } from '../contract/error-codes.js';
import { SCOPES } from '../contract/scopes.js';
import { openEnumSchema } from './json-schemas.js';

/** `components.schemas.FieldErrors`: the details of the codes that name fields. */
export const FIELD_ERRORS: JsonSchema = {
  type: 'object',
  description:
    'Each field at fault (a dotted path into the body, or `body`, `query.<name>`, `request`), with what is wrong with it.',
  additionalProperties: { type: 'array', items: { type: 'string' } },
};

const FIELD_ERRORS_REF: JsonSchema = { $ref: '#/components/schemas/FieldErrors' };

/** Details with these properties, all optional (an answer from in front of the service may carry none), and room for more. */
function detailsWith(description: string, properties: Record<string, JsonSchema>): JsonSchema {
  return { type: 'object', description, properties, additionalProperties: {} };
}

const NOTHING_YET = detailsWith('`{}`: nothing more about this error today; fields may be added.', {});

/** A plan limit reached, named as the mock's plans name it. */
const planLimit = (what: string): JsonSchema => ({
  type: 'integer',
  minimum: 0,
  description: `The most ${what} the plan allows.`,
});

/**
 * The `details` of each code. Typed where the mock sends something (so that a generated client
 * reads `details.required_scope` without a cast), open for what a later service adds.
 */
export const ERROR_DETAILS: Readonly<Record<ErrorCode, JsonSchema>> = {
  VALIDATION_ERROR: FIELD_ERRORS_REF,
  INVALID_PHONE: FIELD_ERRORS_REF,
  TEMPLATE_NOT_FOUND: FIELD_ERRORS_REF,
  PAYLOAD_TOO_LARGE: FIELD_ERRORS_REF,
  INSUFFICIENT_PERMISSIONS: detailsWith('The scope the key lacks.', {
    required_scope: { ...openEnumSchema(SCOPES), description: 'The scope the operation needs.' },
  }),
  PLAN_LIMIT_EXCEEDED: detailsWith('The limit reached, with its value: one of these.', {
    maxContacts: planLimit('contacts'),
    maxMessages: planLimit('messages sent'),
    maxWebhookEndpoints: planLimit('active webhook endpoints'),
  }),
  RESOURCE_NOT_FOUND: detailsWith(
    '`{}` for a resource that does not exist; for a method the path lacks, its methods.',
    {
      allowed_methods: {
        type: 'array',
        items: { type: 'string' },
        description: 'The methods the path has (also in the `Allow` header).',
      },
    },
  ),
  AUTHENTICATION_ERROR: NOTHING_YET,
  KEY_REVOKED: NOTHING_YET,
  RATE_LIMIT_EXCEEDED: NOTHING_YET,
  INTERNAL_ERROR: NOTHING_YET,
  MESSAGING_ERROR: NOTHING_YET,
};
