import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { openApiDocument, SCOPES } from '../../src/mock/index.js';

/** Every `$ref` in a document. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refs(item, found));
  else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref') found.push(child as string);
      else refs(child, found);
    }
  }
  return found;
}

describe.each([1, 2] as const)('the OpenAPI document of Variant %i', (variant) => {
  const document = openApiDocument(variant) as any;

  it('is valid OpenAPI 3.1 for @readme/openapi-parser: no error, no warning', async () => {
    const result = await validate(structuredClone(document));
    expect(result).toEqual({ valid: true, warnings: [], specification: 'OpenAPI' });
    expect(document.openapi).toBe('3.1.0');
  });

  it('resolves every $ref, and every component schema is used', () => {
    const targets = new Set(refs(document));
    for (const target of targets) {
      const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(target)!;
      expect(document.components[section!][name!], target).toBeDefined();
    }
    for (const name of Object.keys(document.components.schemas))
      expect(targets.has(`#/components/schemas/${name}`), name).toBe(true);
  });

  it('names the scope of every operation in its security requirement and in x-scopes', () => {
    const scheme = variant === 1 ? 'ApiKeyAuth' : 'BearerAuth';
    expect(document.components.securitySchemes[scheme]).toMatchObject(
      variant === 1 ? { type: 'apiKey', in: 'header', name: 'X-API-Key' } : { type: 'http', scheme: 'bearer' },
    );
    const operations = Object.values(document.paths).flatMap((item: any) =>
      Object.entries(item)
        .filter(([method]) => method !== 'parameters')
        .map(([, op]) => op as any),
    );
    expect(operations).toHaveLength(variant === 1 ? 9 : 13);
    for (const op of operations) {
      expect(op.security).toEqual([{ [scheme]: op['x-scopes'] }]);
      expect(SCOPES).toContain(op['x-scopes'][0]);
      expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['401', '403', '429', '500']));
    }
  });

  it('lets no path id be empty (the mock answers 404 for one, the clients refuse to send one)', () => {
    const ajv = new Ajv2020({ strict: false });
    const parameters = Object.entries(document.paths).flatMap(([path, item]: [string, any]) =>
      (item.parameters ?? []).map((parameter: any) => [path, parameter] as const),
    );
    expect(parameters.map(([path]) => path)).toEqual(
      variant === 1 ? ['/messages/{id}/status', '/contacts/{id}'] : ['/contacts/{id}', '/conversations/{id}'],
    );
    for (const [path, parameter] of parameters) {
      const valid = ajv.compile(parameter.schema);
      expect([path, valid(''), valid('c_1')]).toEqual([path, false, true]);
    }
  });

  it("describes a message as one object whose id has its variant's name, required (no top-level anyOf)", () => {
    const message = document.components.schemas.Message;
    const [name, other] = variant === 1 ? ['message_id', 'id'] : ['id', 'message_id'];
    expect([message.type, message.anyOf, message.oneOf, message.required]).toEqual([
      'object',
      undefined,
      undefined,
      [name],
    ]);
    expect(message.properties[name]).toEqual({
      type: 'string',
      description: "Not shown in the spec: bizmsg's guess of its name; bizmsg's clients cannot do without it.",
    });
    expect(message.properties[other]).toBeUndefined();
  });

  it('says of each field the spec does not show that it is a guess (contract/fields.ts), and leaves the shown ones as they are', () => {
    const { Contact, MessageReadEvent, MessageDeliveredEvent, Campaign } = document.components.schemas;
    const always = "Not shown in the spec: bizmsg's guess (its mock always sends it). Optional to bizmsg's readers.";
    const maybe = "Not shown in the spec: bizmsg's guess, and it may be absent.";
    expect([
      Contact.properties.phone,
      Contact.properties.tags.description,
      Contact.properties.created_at.description,
    ]).toEqual([{ type: 'string' }, undefined, always]);
    if (variant === 2) expect(Campaign.properties.name).toEqual({ type: 'string', description: always });
    expect(MessageReadEvent.properties.data.properties.to).toEqual({ type: 'string', description: always });
    expect(MessageReadEvent.properties.data.properties.read_at).toEqual({ type: 'string', description: maybe });
    expect(MessageReadEvent.properties.data.required).toBeUndefined();
    expect(MessageDeliveredEvent.properties.data.properties.to).toEqual({ type: 'string' });
    expect(MessageDeliveredEvent.properties.timestamp).toEqual({ type: 'string' });
  });

  it('types each path id as its resource types its id, so that an id read from an answer can be sent back', () => {
    const ajv = new Ajv2020({ strict: false });
    const schemas = Object.fromEntries(
      Object.entries(document.paths)
        .filter(([, item]: [string, any]) => item.parameters !== undefined)
        .map(([path, item]: [string, any]) => [path, ajv.compile(item.parameters[0].schema)]),
    );
    const accepts = (path: string) => ['c_1', 7, 0, -1, 1.5].map((id) => schemas[path]!(id));
    if (variant === 1) expect(accepts('/messages/{id}/status')).toEqual([true, false, false, false, false]);
    else expect(accepts('/conversations/{id}')).toEqual([true, true, true, false, false]);
    expect(accepts('/contacts/{id}')).toEqual([true, true, true, false, false]);
    expect(document.components.schemas.Contact.properties.id).toEqual({ type: ['string', 'number'] });
  });

  it("types the details of every error code, and each code's own schema says `type: string`", () => {
    const errors = document.components.schemas;
    const details = (name: string) => errors[name].properties.details;
    expect(errors.InsufficientPermissionsError.properties.code).toEqual({
      type: 'string',
      const: 'INSUFFICIENT_PERMISSIONS',
    });
    expect(Object.keys(details('InsufficientPermissionsError').properties)).toEqual(['required_scope']);
    expect(Object.keys(details('PlanLimitExceededError').properties)).toEqual([
      'maxContacts',
      'maxMessages',
      'maxWebhookEndpoints',
    ]);
    expect(Object.keys(details('ResourceNotFoundError').properties)).toEqual(['allowed_methods']);
    expect(details('PayloadTooLargeError')).toEqual({ $ref: '#/components/schemas/FieldErrors' });
    expect(details('AuthenticationError')).toMatchObject({ type: 'object', additionalProperties: {} });
    // Every error response's error object is one code's schema, or a choice between them by `code`.
    for (const response of Object.values<any>(document.components.responses)) {
      const envelope = response.content['application/json'].schema;
      const error = envelope.properties.error;
      const refs: string[] = error.$ref === undefined ? error.oneOf.map((o: any) => o.$ref) : [error.$ref];
      for (const ref of refs) expect(errors[ref.split('/').pop()!].properties.code.type).toBe('string');
      if (variant === 1) expect(envelope.properties.success).toEqual({ type: 'boolean', const: false });
    }
  });

  it('gives every phone number a request sends its pattern (else 400 INVALID_PHONE)', () => {
    const schemas = document.components.schemas;
    const phones =
      variant === 1
        ? [schemas.SendTextV1.properties.to, schemas.SendTemplateV1.properties.to]
        : [schemas.SendTextMessage.properties.to, schemas.SendTemplateMessage.properties.to];
    for (const phone of [...phones, schemas.ContactCreate.properties.phone, schemas.ContactUpdate.properties.phone])
      expect(phone).toMatchObject({ type: 'string', pattern: '^\\+?[1-9]\\d{7,14}$' });
    // What the service sends back is not held to it: the spec shows both forms, and more may come.
    expect(schemas.Contact.properties.phone).toEqual({ type: 'string' });
  });

  it('describes the webhook payloads as OpenAPI 3.1 webhooks, signed with X-Service-Signature', () => {
    expect(Object.keys(document.webhooks)).toHaveLength(10);
    expect(document.webhooks['message.delivered'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/MessageDeliveredEvent',
    });
    expect(document.components.parameters.ServiceSignature).toMatchObject({
      name: 'X-Service-Signature',
      in: 'header',
      required: true,
    });
    expect(document.components.schemas.MessageDeliveredEvent.properties.data.required).toEqual([
      'message_id',
      'to',
      'status',
      'delivered_at',
    ]);
  });

  it('keeps open enums open and loose objects loose', () => {
    const contact = document.components.schemas.Contact;
    expect(contact.additionalProperties).toEqual({});
    expect(document.components.schemas.Message.properties.status).toEqual({
      anyOf: [
        { type: 'string', enum: ['sent', 'delivered', 'read', 'failed', 'received'] },
        { type: 'string', description: 'A value added after this document.' },
      ],
      description: "Not shown in the spec: bizmsg's guess (its mock always sends it). Optional to bizmsg's readers.",
    });
  });
});
