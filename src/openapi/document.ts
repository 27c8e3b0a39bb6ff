// The OpenAPI 3.1 document of a variant, generated from the endpoint table and the zod schemas.
import { endpointsOf, errorCodesOf, type Endpoint, type JsonSchema } from '../contract/endpoints.js';
import { ListMetaSchema } from '../schemas/common.js';
import type { Variant } from '../contract/variant.js';
import { SCOPE_GRANTS, SCOPES } from '../contract/scopes.js';
import { SIGNATURE_HEADER_NAME } from '../contract/webhooks.js';
import { ErrorResponses } from './errors.js';
import { HEADERS, rateLimitHeaders } from './headers.js';
import { componentSchemas, type ComponentSchemas } from './json-schemas.js';
import { SIGNATURE_PARAMETER, webhooksSection } from './webhooks.js';

/** Options of `openApiDocument`. */
export interface OpenApiOptions {
  /** The server the document names, ending with `/api/v1` (default: a templated `https://{host}/api/v1`). */
  serverUrl?: string | undefined;
}

/** What each tag groups (the endpoint table's tags, and the webhooks'). */
const TAGS: Readonly<Record<string, string>> = {
  Messages: 'Sending text and template messages, and their delivery status.',
  Contacts: 'The contacts of the account.',
  Conversations: 'Conversations with contacts, each with its messages.',
  Campaigns: 'A template sent to a segment of the contacts at a scheduled time.',
  Webhooks: 'The endpoints that receive the webhook events.',
  Automations: 'Automation flows, triggered for a contact.',
  Account: 'The account and the key that asks.',
  'Webhook events': `What the service POSTs to each registered endpoint, signed with \`${SIGNATURE_HEADER_NAME}\`.`,
};

/** How each variant authenticates (spec section 5). */
const SECURITY: Record<Variant, { name: string; scheme: JsonSchema }> = {
  1: { name: 'ApiKeyAuth', scheme: { type: 'apiKey', in: 'header', name: 'X-API-Key' } },
  2: { name: 'BearerAuth', scheme: { type: 'http', scheme: 'bearer' } },
};

/**
 * The OpenAPI 3.1 document of one variant of the service, generated from the zod schemas the
 * clients parse with and the mock validates with: paths, bodies, responses in the variant's
 * envelopes, every error code with its status, security with the scope of each operation,
 * rate-limit headers, pagination and the webhook payloads.
 */
export function openApiDocument(variant: 1 | 2, options: OpenApiOptions = {}): Record<string, unknown> {
  const components = componentSchemas(variant);
  const errors = new ErrorResponses(variant);
  const security = SECURITY[variant];
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpointsOf(variant)) {
    const item = (paths[endpoint.path] ??= pathParameters(endpoint, components));
    item[endpoint.method.toLowerCase()] = operation(variant, endpoint, components, errors, security.name);
  }
  const document: JsonSchema = {
    openapi: '3.1.0',
    info: {
      title: `Business Messaging Service API (Variant ${variant})`,
      version: '1',
      description: describeVariant(variant),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers:
      options.serverUrl === undefined
        ? [{ url: 'https://{host}/api/v1', variables: { host: { default: 'api.example.com' } } }]
        : [{ url: options.serverUrl }],
    security: [{ [security.name]: [] }],
    tags: [...new Set(endpointsOf(variant).map((e) => e.tag)), 'Webhook events'].map((name) => ({
      name,
      description: TAGS[name],
    })),
    paths,
    webhooks: webhooksSection(),
    components: {
      securitySchemes: { [security.name]: { ...security.scheme, description: scopesDescription(variant) } },
      parameters: { ServiceSignature: SIGNATURE_PARAMETER },
      headers: HEADERS,
      responses: errors.components,
      schemas: { ...components.schemas, ...errors.schemas },
    },
  };
  return withoutUnusedSchemas(document);
}

function operation(
  variant: Variant,
  endpoint: Endpoint,
  components: ComponentSchemas,
  errors: ErrorResponses,
  scheme: string,
): JsonSchema {
  const payload = endpoint.list
    ? { type: 'array', items: components.ref(endpoint.payload) }
    : components.ref(endpoint.payload);
  return {
    operationId: endpoint.operationId,
    summary: endpoint.summary,
    description: `Requires the \`${endpoint.scope}\` scope. Client: \`client.${endpoint.clientMethod}()\`.`,
    tags: [endpoint.tag],
    // OpenAPI 3.1 lets any security scheme list the roles an operation needs; x-scopes says the same for tools that read only OAuth scopes.
    security: [{ [scheme]: [endpoint.scope] }],
    'x-scopes': [endpoint.scope],
    ...(endpoint.query === undefined ? {} : { parameters: endpoint.query.map((q) => ({ in: 'query', ...q })) }),
    ...(endpoint.body === undefined
      ? {}
      : {
          requestBody: { required: true, content: { 'application/json': { schema: components.ref(endpoint.body) } } },
        }),
    responses: {
      [String(endpoint.status)]: {
        description: endpoint.status === 201 ? 'Created.' : 'Success.',
        headers: rateLimitHeaders(true),
        content: {
          'application/json': { schema: successEnvelope(variant, payload, endpoint.list === true, components) },
        },
      },
      ...errors.byStatus(errorCodesOf(endpoint)),
    },
  };
}

/** The success envelope of a variant: V1 `{success: true, data, meta?}`, V2 `{data, meta?}`. */
function successEnvelope(
  variant: Variant,
  payload: JsonSchema,
  list: boolean,
  components: ComponentSchemas,
): JsonSchema {
  const properties: JsonSchema = {
    ...(variant === 1 ? { success: { type: 'boolean', const: true } } : {}),
    data: payload,
    ...(list ? { meta: components.ref(ListMetaSchema) } : {}),
  };
  const required = [...(variant === 1 ? ['success'] : []), 'data', ...(list ? ['meta'] : [])];
  return { type: 'object', required, properties };
}

/**
 * The `{id}` parameter of `endpoint`'s path, at the path level, typed as the resource it answers
 * with types its id: a generated client can then send back an id it read, without a cast.
 */
function pathParameters(endpoint: Endpoint, components: ComponentSchemas): Record<string, unknown> {
  const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (names.length === 0) return {};
  const resource = endpoint.path.split('/')[1]!.replace(/s$/, '');
  const schema = pathIdSchema(resourceIdOf(endpoint, components));
  const what = schema.type === 'string' ? 'a string' : 'a string or a whole number';
  return {
    parameters: names.map((name) => ({
      name,
      in: 'path',
      required: true,
      description: `The ${resource}'s id as its answers give it (${what}, never empty); bizmsg sends it URL-encoded.`,
      schema,
    })),
  };
}

/** The id field of the resource `endpoint` answers with (a message's, under its variant's name). */
function resourceIdOf(endpoint: Endpoint, components: ComponentSchemas): JsonSchema {
  const name = String(components.ref(endpoint.payload).$ref).split('/').pop()!;
  const properties = components.schemas[name]!.properties as Record<string, JsonSchema>;
  return properties.id ?? properties.message_id!;
}

/**
 * A path id: what the resource's id may be, never empty (`/contacts/` is not `/contacts/{id}`:
 * the mock answers 404, the clients refuse to send it); a number only as the clients send one, a
 * whole number from 0.
 */
function pathIdSchema(id: JsonSchema): JsonSchema {
  return [id.type].flat().includes('number')
    ? { type: ['string', 'integer'], minLength: 1, minimum: 0 }
    : { type: 'string', minLength: 1 };
}

function describeVariant(variant: Variant): string {
  const envelope =
    variant === 1
      ? '`{ "success": true, "data": ..., "meta"?: ... }`; errors `{ "success": false, "error": { code, message, details } }`'
      : '`{ "data": ..., "meta"?: ... }` (bizmsg clients also accept the bare payload); errors `{ "error": { code, message, details } }`';
  return [
    `Variant ${variant} of the Business Messaging Service, generated by bizmsg from the zod schemas its clients parse with and its mock validates with (never edited by hand).`,
    `Success bodies are ${envelope}. Every response carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\` once the key is checked; a 429 also \`Retry-After\`.`,
    'Where the spec does not show something, this document says what bizmsg decided: response bodies, the scope of each operation, page sizes, body limits, the Variant 1 template and automation bodies, and the `data` of the webhook events other than message.delivered.',
  ].join('\n\n');
}

function scopesDescription(variant: Variant): string {
  const header =
    variant === 1 ? 'Send the key in the `X-API-Key` header.' : 'Send the key as `Authorization: Bearer <key>`.';
  const rows = SCOPES.map((scope) => `| \`${scope}\` | ${SCOPE_GRANTS[scope]} |`);
  return [
    `${header} Keys may be limited to scopes; a key created without scopes has all of them. Each operation lists the scope it needs in its security requirement and in \`x-scopes\`; without it the answer is 403 INSUFFICIENT_PERMISSIONS.`,
    '',
    '| scope | grants |',
    '|---|---|',
    ...rows,
  ].join('\n');
}

/** The document without the component schemas nothing refers to (the other variant's). */
function withoutUnusedSchemas(document: JsonSchema): JsonSchema {
  const components = document.components as { schemas: Record<string, JsonSchema> };
  const used = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith('#/components/schemas/')) {
          const name = child.slice('#/components/schemas/'.length);
          if (!used.has(name)) {
            used.add(name);
            visit(components.schemas[name]);
          }
        } else visit(child);
      }
    }
  };
  visit({ ...document, components: { ...components, schemas: {} } });
  components.schemas = Object.fromEntries(Object.entries(components.schemas).filter(([name]) => used.has(name)));
  return document;
}
