// The documents' component schemas: the zod schemas as JSON Schema, as the wire carries them.
import * as z from 'zod/mini';
import type { JsonSchema } from '../contract/endpoints.js';
import { EVENT_MARKS, EVENT_SCHEMAS } from '../contract/event-fields.js';
import { objectOf, RECORD_MARKS, type FieldMark } from '../contract/fields.js';
import type { Variant } from '../contract/variant.js';
import { AccountSchema } from '../schemas/account.js';
import { AutomationExecutionSchema } from '../schemas/automation.js';
import { AutomationTriggerSchema } from '../schemas/automation-params.js';
import { CampaignSchema } from '../schemas/campaign.js';
import { CampaignCreateSchema } from '../schemas/campaign-params.js';
import { INTEGERS, knownValues, ListMetaSchema, PairsSchema, PhoneParamSchema } from '../schemas/common.js';
import { PHONE_PATTERN, PHONE_PATTERN_TEXT } from '../shared/phone-pattern.js';
import { ContactSchema, DeleteResultSchema } from '../schemas/contact.js';
import { ContactCreateSchema, ContactUpdateSchema } from '../schemas/contact-params.js';
import { ConversationSchema, ConversationWithMessagesSchema } from '../schemas/conversation.js';
import { MessageSchema } from '../schemas/message.js';
import {
  TemplateParameterSchema,
  Variant2SendMessageSchema,
  Variant2TemplateMessageSchema,
  Variant1SendTemplateSchema,
  Variant2TextMessageSchema,
  Variant1SendTextSchema,
} from '../schemas/message-params.js';
import { WebhookEndpointSchema } from '../schemas/webhook-endpoint.js';
import { WebhookEndpointCreateSchema } from '../schemas/webhook-endpoint-params.js';

/** The name each shared schema has under `components.schemas`. */
const NAMES: ReadonlyArray<readonly [z.ZodMiniType, string]> = [
  [ListMetaSchema, 'ListMeta'],
  [ContactSchema, 'Contact'],
  [ContactCreateSchema, 'ContactCreate'],
  [ContactUpdateSchema, 'ContactUpdate'],
  [DeleteResultSchema, 'DeleteResult'],
  [MessageSchema, 'Message'],
  [Variant1SendTextSchema, 'SendTextV1'],
  [Variant1SendTemplateSchema, 'SendTemplateV1'],
  [Variant2SendMessageSchema, 'SendMessage'],
  [Variant2TextMessageSchema, 'SendTextMessage'],
  [Variant2TemplateMessageSchema, 'SendTemplateMessage'],
  [ConversationSchema, 'Conversation'],
  [ConversationWithMessagesSchema, 'ConversationWithMessages'],
  [CampaignSchema, 'Campaign'],
  [CampaignCreateSchema, 'CampaignCreate'],
  [WebhookEndpointSchema, 'WebhookEndpoint'],
  [WebhookEndpointCreateSchema, 'WebhookEndpointCreate'],
  [AccountSchema, 'Account'],
  [AutomationTriggerSchema, 'AutomationTrigger'],
  [AutomationExecutionSchema, 'AutomationExecution'],
  ...webhookEventNames(),
];

function webhookEventNames(): Array<readonly [z.ZodMiniType, string]> {
  return [...EVENT_SCHEMAS].map(([kind, schema]) => [schema, eventSchemaName(kind)] as const);
}

/** `message.delivered` -> `MessageDeliveredEvent`. */
export function eventSchemaName(kind: string): string {
  return `${kind
    .split(/[._]/)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('')}Event`;
}

/** The JSON Schemas of `components.schemas`, and how to point at one. */
export interface ComponentSchemas {
  /** Every named schema, converted. */
  readonly schemas: Record<string, JsonSchema>;
  /** A `$ref` to the component of `schema`. */
  ref(schema: z.ZodMiniType): JsonSchema;
  /** Whether `schema` has a component name. */
  named(schema: z.ZodMiniType): boolean;
}

/**
 * The named schemas of `variant`'s document as JSON Schema 2020-12, as the wire carries them: the
 * input side of each zod schema, since responses are what the clients parse and requests what the
 * mock parses. Open enums become "one of these, or any other string"; loose objects keep
 * `additionalProperties`.
 */
export function componentSchemas(variant: Variant): ComponentSchemas {
  const components = namedComponents(NAMES, (context) => refine(context, variant));
  for (const [schema, name] of NAMES) components.schemas[name] = withGuessesMarked(components.schemas[name]!, schema);
  return components;
}

/** What `override` gets of each node zod converts: the zod schema and its JSON Schema, to change in place. */
type Override = (context: { zodSchema: unknown; jsonSchema: JsonSchema }) => void;

/**
 * `names` (each a zod schema and its component name) as JSON Schema components, the input side of
 * each, `override` applied to every node; z.int()'s safe-integer bounds, true of every JSON number
 * a client reads, are left out as noise. Shared by the service's documents and the mock's control API's.
 */
export function namedComponents(
  names: ReadonlyArray<readonly [z.ZodMiniType, string]>,
  override: Override = () => undefined,
): ComponentSchemas {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of names) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    override: (context) => {
      withoutSafeIntegerBounds(context.jsonSchema);
      asInteger(context);
      override(context);
    },
  }) as { schemas: Record<string, JsonSchema> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  const byName = new Map(names);
  return {
    schemas,
    ref: (schema) => {
      const name = byName.get(schema);
      if (name === undefined) throw new Error('This schema has no component name: add it to the names given.');
      return { $ref: `#/components/schemas/${name}` };
    },
    named: (schema) => byName.has(schema),
  };
}

/** A schema with no component name, inline (its named parts inline too), as `namedComponents` converts. */
export function inlineSchema(schema: z.ZodMiniType): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    override: (context) => {
      withoutSafeIntegerBounds(context.jsonSchema);
      asInteger(context);
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** A number bizmsg expects whole (`int()` of schemas/common.ts) typed as the integer it is. */
function asInteger({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  if (INTEGERS.has(zodSchema as z.ZodMiniType) && jsonSchema.type === 'number') jsonSchema.type = 'integer';
}

function withoutSafeIntegerBounds(jsonSchema: JsonSchema): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

/** An open enum: one of `known`, or a string added later (generated clients type it as a plain string). */
export function openEnumSchema(known: readonly string[]): JsonSchema {
  return {
    anyOf: [
      { type: 'string', enum: [...known] },
      { type: 'string', description: 'A value added after this document.' },
    ],
  };
}

/** Where zod's JSON Schema says less than the schema means, or more than the wire needs. */
function refine({ zodSchema, jsonSchema }: { zodSchema: unknown; jsonSchema: JsonSchema }, variant: Variant): void {
  const known = knownValues.get(zodSchema as z.ZodMiniType);
  if (known !== undefined) {
    delete jsonSchema.type;
    Object.assign(jsonSchema, openEnumSchema(known));
  }
  // Free-form pairs read as a loose object of no fields: a map, said as RecordSchema's JSON Schema says it.
  if (zodSchema === PairsSchema) {
    delete jsonSchema.properties;
    delete jsonSchema.additionalProperties;
    Object.assign(jsonSchema, { propertyNames: { type: 'string' }, additionalProperties: {} });
  }
  if (zodSchema === MessageSchema) messageIdOf(jsonSchema, variant);
  if (zodSchema === PhoneParamSchema) {
    jsonSchema.pattern = PHONE_PATTERN.source;
    jsonSchema.description = `An international number: ${PHONE_PATTERN_TEXT} (else 400 INVALID_PHONE).`;
  }
  if (zodSchema === TemplateParameterSchema)
    jsonSchema.description =
      'A value filled into a template: `{ type: "text", text }` (header, body, a url button), `{ type: "payload", payload }` (a quick reply), ' +
      'or another kind with its own fields. A `text` parameter needs a `text`, a `payload` one a `payload`, each with more than spaces.';
}

/** What a guessed field's description says (contract/fields.ts marks it): the spec does not show it. */
const GUESSED: Partial<Record<FieldMark, string>> = {
  guessed: "Not shown in the spec: bizmsg's guess (its mock always sends it). Optional to bizmsg's readers.",
  'guessed?': "Not shown in the spec: bizmsg's guess, and it may be absent.",
  promised: "Not shown in the spec: bizmsg's guess of its name; bizmsg's clients cannot do without it.",
};

/**
 * `json` (the JSON Schema of `schema`) with each property the contract marks as guessed saying
 * that the spec does not show it, and so in the objects written inline in it (an event's `data`);
 * a shown one is left as it is. Copies what it changes: zod shares a field's JSON Schema between
 * the objects that have that field.
 */
function withGuessesMarked(json: JsonSchema, schema: z.ZodMiniType): JsonSchema {
  const object = objectOf(schema);
  const marks = RECORD_MARKS.get(object) ?? EVENT_MARKS.get(object);
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  if (marks === undefined || properties === undefined) return json;
  const shape = (object._zod.def as unknown as { shape: Record<string, z.ZodMiniType> }).shape;
  const required = (json.required as string[] | undefined) ?? [];
  const marked = Object.entries(properties).map(([name, property]) => {
    const inner = withGuessesMarked(property, shape[name]!);
    // A message's id: either name may carry it, so neither is promised, but this document requires one (messageIdOf).
    const mark = required.includes(name) && marks[name] === 'guessed?' ? 'promised' : marks[name]!;
    const note = GUESSED[mark];
    if (note === undefined) return [name, inner];
    const own = typeof inner.description === 'string' ? `${inner.description} ` : '';
    return [name, { ...inner, description: `${own}${note}` }];
  });
  return { ...json, properties: Object.fromEntries(marked) };
}

/**
 * A message's id under the one name its variant's service sends (the mock's `messageView`):
 * `message_id` in Variant 1, `id` in Variant 2, required. Not "either, anyOf": generators make a
 * top-level anyOf of `required` lists an `unknown` type (openapi-typescript: every message).
 */
function messageIdOf(jsonSchema: JsonSchema, variant: Variant): void {
  const [name, other] = variant === 1 ? ['message_id', 'id'] : ['id', 'message_id'];
  delete (jsonSchema.properties as Record<string, JsonSchema>)[other];
  jsonSchema.required = [name];
  jsonSchema.description =
    `A message; its id is \`${name}\` in Variant ${variant} (a string, \`msg_<id>\` in the spec). ` +
    "bizmsg's clients also accept the other variant's name and always expose it as `id`.";
}
