// The control API's OpenAPI 3.1 document, generated from its route table and the zod schemas that
// check each route's input (and describe its output): what GET /_bizmsg/openapi.json answers.
import type * as z from 'zod/mini';
import { inlineSchema, namedComponents } from '../../openapi/json-schemas.js';
import {
  DeliveryAttemptSchema,
  RecordedRequestSchema,
  PendingTaskSchema,
  SentEmailSchema,
  StoredCampaignSchema,
  StoredContactSchema,
  StoredConversationSchema,
  StoredMessageSchema,
  StoredWebhookEndpointSchema,
} from '../state/records.js';
import { TemplateSpecSchema } from '../../templates/catalog.js';
import { FaultOutput, HealthOutput, StateOutput } from '../operations.js';
import { CustomerMessageSchema } from '../customer/transcript.js';
import { CONTROL_ROUTES, type ControlRoute } from './routes.js';
import {
  AdvanceInput,
  ConversationChangeInput,
  EmitInput,
  FaultInput,
  InboundInput,
  KeyInput,
  MessageStatusInput,
  SayInput,
} from '../calls/schemas.js';
import { ControlErrorOutput } from './errors.js';
import { StreamActivitySchema } from './stream.js';

type Json = Record<string, unknown>;

/** The name each shared schema has under `components.schemas`. */
const NAMES: ReadonlyArray<readonly [z.ZodMiniType, string]> = [
  [StoredContactSchema, 'Contact'],
  [StoredMessageSchema, 'Message'],
  [StoredConversationSchema, 'Conversation'],
  [StoredCampaignSchema, 'Campaign'],
  [StoredWebhookEndpointSchema, 'WebhookEndpoint'],
  [DeliveryAttemptSchema, 'DeliveryAttempt'],
  [SentEmailSchema, 'Email'],
  [RecordedRequestSchema, 'RecordedRequest'],
  [PendingTaskSchema, 'PendingTask'],
  [TemplateSpecSchema, 'Template'],
  [HealthOutput, 'Health'],
  [StateOutput, 'State'],
  [FaultOutput, 'InjectedFault'],
  [AdvanceInput, 'ClockAdvance'],
  [KeyInput, 'KeyCreate'],
  [InboundInput, 'InboundMessage'],
  [ConversationChangeInput, 'ConversationChange'],
  [EmitInput, 'EventEmit'],
  [MessageStatusInput, 'MessageStatusChange'],
  [FaultInput, 'Fault'],
  [StreamActivitySchema, 'StreamActivity'],
  [SayInput, 'CustomerSay'],
  [CustomerMessageSchema, 'CustomerMessage'],
];

/** Options of `controlApiDocument`. */
export interface ControlApiDocumentOptions {
  /** The mock's origin the document names as its server (default: `http://127.0.0.1:4010`). */
  serverUrl?: string | undefined;
}

/**
 * The OpenAPI 3.1 document of the mock's control API (`/_bizmsg/`), generated from the schemas
 * that check its routes' input: for clients in any language, and for tools.
 */
export function controlApiDocument(options: ControlApiDocumentOptions = {}): Json {
  const components = componentSchemas();
  const paths: Record<string, Json> = {};
  for (const route of CONTROL_ROUTES) {
    (paths[route.path] ??= parametersOf(route))[route.method.toLowerCase()] = operation(route, components);
  }
  paths['/_bizmsg/openapi.json'] = {
    get: {
      operationId: 'openApiDocument',
      summary: 'This document',
      responses: {
        '200': {
          description: 'The OpenAPI 3.1 document of the control API.',
          content: { 'application/json': { schema: { type: 'object' } } },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'bizmsg mock control API',
      version: '1',
      license: { name: 'MIT', identifier: 'MIT' },
      description: [
        "Steers and inspects a running bizmsg-mock from any process or language: its clock, faults, keys, inbound messages, webhook endpoints and events, its request journal and every delivery attempt. It lives at the mock's origin under /_bizmsg/, apart from the service's /api/v1: it is never rate-limited, faulted or journaled.",
        'Bound to a loopback address it needs no credentials; bound to any other address every call needs `Authorization: Bearer <control token>` (printed by bizmsg-mock at start, or set with --control-token). The API keys of the service never open it, and its token never opens the service. Times named `at` are the virtual clock in ms since the epoch; `now` is ISO 8601.',
        "A refused call changes nothing and answers `{ error: { code, message, details } }`: 400 INVALID_ARGUMENT (details maps each field at fault to what is wrong), 401 UNAUTHORIZED, 403 FORBIDDEN (another origin; a Host that is not one of the mock's names, which are localhost, *.localhost, any IP address, the host bound and --allowed-hosts; or a request carrying X-Bizmsg-Mock-Delivery, a delivery of a mock led back to one), 404 NOT_FOUND (an id that names nothing), 405, 409 CONFLICT (the state forbids it), 413, 415 (a body that is not JSON).",
      ].join('\n\n'),
    },
    servers: [{ url: options.serverUrl ?? 'http://127.0.0.1:4010' }],
    security: [{}, { ControlToken: [] }],
    paths,
    components: {
      securitySchemes: {
        ControlToken: {
          type: 'http',
          scheme: 'bearer',
          description: 'The control token, required when the mock is bound to a non-loopback address.',
        },
      },
      schemas: { ...components.schemas, Error: inlineSchema(ControlErrorOutput) },
      responses: {
        Refused: {
          description: 'The call was refused; nothing changed.',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}

function operation(route: ControlRoute, components: Components): Json {
  const query = route.query === undefined ? [] : queryParameters(route.query, components);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(query.length === 0 ? {} : { parameters: query }),
    ...(route.body === undefined
      ? {}
      : {
          requestBody: { required: true, content: { 'application/json': { schema: components.schemaOf(route.body) } } },
        }),
    responses: {
      [String(route.status)]: success(route, components),
      '4XX': { $ref: '#/components/responses/Refused' },
    },
  };
}

function success(route: ControlRoute, components: Components): Json {
  if (route.events !== undefined)
    return {
      description:
        'Server-Sent Events until the reader leaves: `ready` (data `{ now }`) at once, then `activity` events whose data is the JSON of `x-event-data`, and a comment every 15 s.',
      content: {
        // OpenAPI 3.1 cannot type the events of a stream; the extension names the schema of each one's data.
        'text/event-stream': { schema: { type: 'string' }, 'x-event-data': components.schemaOf(route.events) },
      },
    };
  if (route.output === undefined) return { description: 'Done.' };
  return { description: 'Done.', content: { 'application/json': { schema: components.schemaOf(route.output) } } };
}

function parametersOf(route: ControlRoute): Json {
  const names = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  if (names.length === 0) return {};
  const text = (name: string) => name !== 'id' || route.idIsText === true;
  return {
    parameters: names.map((name) => ({
      name,
      in: 'path',
      required: true,
      ...(name === 'phone' ? { description: PHONE_PARAMETER } : {}),
      schema: text(name) ? { type: 'string', minLength: 1 } : { type: 'integer', minimum: 1 },
    })),
  };
}

/** What a `{phone}` in a path takes. */
const PHONE_PARAMETER =
  "The customer's number in any spelling, URL-encoded: %2B447700900124, %2B44%207700%20900124, 0044%207700%20900124 or tel%3A%2B447700900124. A value that spells no international number is refused (400) naming it.";

function queryParameters(schema: z.ZodMiniType, components: Components): Json[] {
  const properties = (components.schemaOf(schema).properties ?? {}) as Record<string, Json>;
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: false,
    schema: property,
  }));
}

/** The named schemas, and how to point at any schema. */
interface Components {
  readonly schemas: Record<string, Json>;
  /** A `$ref` for a named schema, an array of `$ref`s for an array of one, else the schema inline. */
  schemaOf(schema: z.ZodMiniType): Json;
}

function componentSchemas(): Components {
  const components = namedComponents(NAMES);
  const schemaOf = (schema: z.ZodMiniType): Json => {
    if (components.named(schema)) return components.ref(schema);
    const def = schema._zod.def as { type: string; element?: z.ZodMiniType };
    if (def.type === 'array' && def.element !== undefined) return { type: 'array', items: schemaOf(def.element) };
    return inlineSchema(schema);
  };
  return { schemas: components.schemas, schemaOf };
}
