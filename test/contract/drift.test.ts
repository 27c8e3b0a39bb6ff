import fc from 'fast-check';
import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { compareShape, isEmptyDrift } from '../../src/contract/drift.js';
import { shapeOfSchema } from '../../src/contract/shape.js';
import { logDriftOnce, sendDrift, type DriftReport } from '../../src/contract/drift-report.js';
import { EVENT_SCHEMAS } from '../../src/contract/event-fields.js';
import { expected } from '../../src/schemas/common.js';
import { ContactSchema } from '../../src/schemas/contact.js';
import { ConversationWithMessagesSchema } from '../../src/schemas/conversation.js';
import { MessageSchema } from '../../src/schemas/message.js';
import { Variant2SendMessageSchema } from '../../src/schemas/message-params.js';

/** The drift check of `value` against the shape of `schema`, as the clients run it. */
const compare = (schema: z.ZodMiniType, value: unknown, root?: string) =>
  compareShape(shapeOfSchema(schema), value, root);

const contact = {
  id: 7,
  phone: '4915112345678',
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('compareShape', () => {
  it('finds nothing in a value of the expected shape, and gives that same value back', () => {
    const value = { ...contact, name: 'Ada', email: null, tags: ['vip'], custom_fields: { a: [1] } };
    const reading = compare(ContactSchema, value, 'data');
    expect(reading).toEqual({ missing: [], unexpected: [], mismatched: [], value, fits: true });
    expect(reading.value).toBe(value);
  });

  it('names missing, unknown and mismatched fields by dotted paths from the root, and leaves the mismatched optional ones out', () => {
    const value = { id: 7, phone: '4915112345678', tags: 'vip,new', vip: true, created_at: 1767225600 };
    expect(compare(ContactSchema, value, 'data')).toEqual({
      missing: ['data.updated_at'],
      unexpected: ['data.vip'],
      mismatched: [
        { path: 'data.tags', expected: 'array', received: 'string' },
        { path: 'data.created_at', expected: 'string | null', received: 'number' },
      ],
      // The epoch time is read as its instant; the tags, text where a list was guessed, are left out.
      value: { id: 7, phone: '4915112345678', vip: true, created_at: '2026-01-01T00:00:00.000Z' },
      fits: true,
    });
    expect(value.tags).toBe('vip,new');
  });

  it('does not fit when a required field is missing or of another type, and keeps it for the parser to name', () => {
    expect(compare(ContactSchema, { ...contact, phone: ['4915112345678'] })).toMatchObject({
      mismatched: [{ path: 'phone', expected: 'string', received: 'array' }],
      value: { ...contact, phone: ['4915112345678'] },
      fits: false,
    });
    // Where nothing is lost, a required field of another type is given in the expected one instead.
    expect(compare(ContactSchema, { ...contact, id: '7', phone: 4915112345678 })).toMatchObject({
      mismatched: [{ path: 'phone', expected: 'string', received: 'number' }],
      value: { ...contact, id: '7', phone: '4915112345678' },
      fits: true,
    });
    expect(compare(ContactSchema, { phone: '1' })).toMatchObject({
      missing: ['id', 'created_at', 'updated_at'],
      fits: false,
    });
    expect(compare(ContactSchema, [contact], 'data')).toMatchObject({
      mismatched: [{ path: 'data', expected: 'object', received: 'array' }],
      fits: false,
    });
  });

  it('reports an optional field missing only when the schema expects it every time (expected())', () => {
    expect(compare(ContactSchema, { id: 1, phone: '1' }).missing).toEqual(['created_at', 'updated_at']);
    const schema = z.looseObject({ a: z.optional(z.string()), b: expected(z.string()), c: z.string() });
    expect(compare(schema, {}).missing).toEqual(['b', 'c']);
  });

  it('names array items by [] once however many items differ, and copies only what changed', () => {
    const second = { id: 'msg_2', to: '49', status: 'sent' };
    const value = {
      id: 1,
      status: 'open',
      messages: [{ id: 'msg_1', to: 49, status: 'sent' }, second, { id: 'msg_3', to: 50, status: 'sent' }],
    };
    const reading = compare(ConversationWithMessagesSchema, value, 'data');
    expect(reading.mismatched).toEqual([{ path: 'data.messages[].to', expected: 'string | null', received: 'number' }]);
    expect(reading.fits).toBe(true);
    const kept = reading.value as typeof value;
    expect(kept.messages).toEqual([{ id: 'msg_1', status: 'sent' }, second, { id: 'msg_3', status: 'sent' }]);
    expect(kept.messages[1]).toBe(second);
    expect(value.messages[0]!.to).toBe(49);
  });

  it('reads a pipe by its input (a message whose id is under message_id), an integer as JSON has it, a union by its types', () => {
    expect(compare(MessageSchema, { message_id: 'msg_1', messaging_account_id: 1.5, campaign_id: true })).toMatchObject(
      {
        unexpected: [],
        mismatched: [
          { path: 'messaging_account_id', expected: 'integer', received: 'number' },
          { path: 'campaign_id', expected: 'string | number', received: 'boolean' },
        ],
        value: { message_id: 'msg_1' },
        fits: true,
      },
    );
  });

  it('follows a discriminated union by its tag, and reports the unknown keys of a strict object (a request body)', () => {
    const body = {
      to: '1',
      messaging_account_id: 1,
      type: 'template',
      content: { name: 'x', language: 'en', components: [{ type: 'body', parameters: [{ type: 'text', text: 5 }] }] },
      priority: 'high',
    };
    expect(compare(Variant2SendMessageSchema, body)).toMatchObject({
      unexpected: ['priority'],
      mismatched: [{ path: 'content.components[].parameters[].text', expected: 'string', received: 'number' }],
    });
  });

  it('shows a key that is no field name as *, and keeps each list short', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`field_${i}`, i]));
    const value = {
      ...contact,
      '+4915112345678': 1,
      'ada@example.com': 2,
      '12': 3,
      [`x${'y'.repeat(80)}`]: 4,
      ...many,
    };
    const { unexpected } = compare(ContactSchema, value);
    expect(unexpected.slice(0, 2)).toEqual(['*', 'field_0']);
    expect(unexpected).toHaveLength(100);
  });

  it('shows a key shaped like a secret as *, and a field name with digits as it is', () => {
    const keys = [
      'sk_live_abc123CANARY',
      'sk_test_a087eaf300b349c9',
      'whsec_abc123',
      'x_a087eaf300b349',
      'wa_id',
      'line2',
      'v2_status_code',
    ];
    const { unexpected } = compare(ContactSchema, {
      ...contact,
      ...Object.fromEntries(keys.map((key) => [key, 1])),
    });
    expect(unexpected).toEqual(['*', 'wa_id', 'line2', 'v2_status_code']);
  });

  it('reads an event: its envelope and its data, by the marks of its kind', () => {
    const event = {
      event: 'message.read',
      timestamp: 1767225600,
      data: { id: 'msg_1', recipient_id: '4915112345678', read_at: 1767225600 },
      entry: [],
    };
    expect(compare(EVENT_SCHEMAS.get('message.read')!, event)).toMatchObject({
      missing: ['data.message_id', 'data.to', 'data.status'],
      unexpected: ['data.id', 'data.recipient_id', 'entry'],
      mismatched: [
        { path: 'timestamp', expected: 'string', received: 'number' },
        { path: 'data.read_at', expected: 'string', received: 'number' },
      ],
    });
  });

  it('reads the shapes real services are known to send as its own, and reports each as mismatched', () => {
    const conversation = {
      id: 'conv_1',
      status: 'open',
      // Intercom and Stripe wrap their lists; a wrapped list is read as its items.
      messages: { object: 'list', data: [{ message_id: 'm_1', created_at: '1767225600' }], has_more: false },
    };
    expect(compare(ConversationWithMessagesSchema, conversation, 'data')).toMatchObject({
      mismatched: [
        { path: 'data.messages', expected: 'array', received: 'object' },
        { path: 'data.messages[].created_at', expected: 'string (ISO 8601)', received: 'string (epoch)' },
      ],
      value: { ...conversation, messages: [{ message_id: 'm_1', created_at: '2026-01-01T00:00:00.000Z' }] },
      fits: true,
    });
    for (const wrapped of [{ data: [] }, { items: [] }])
      expect(compare(ConversationWithMessagesSchema, { ...conversation, messages: wrapped }).value).toEqual({
        ...conversation,
        messages: [],
      });
    // Tags as objects (Intercom, HubSpot) are read as their names; epoch milliseconds as their instant.
    const tagged = { ...contact, tags: [{ id: 3, name: 'vip' }, 'new'], updated_at: 1767225600123 };
    expect(compare(ContactSchema, tagged)).toEqual({
      missing: [],
      unexpected: [],
      mismatched: [
        { path: 'tags[]', expected: 'string', received: 'object' },
        { path: 'updated_at', expected: 'string | null', received: 'number' },
      ],
      value: { ...contact, tags: ['vip', 'new'], updated_at: '2026-01-01T00:00:00.123Z' },
      fits: true,
    });
    // What is no such shape is left out as before: an object without a name, a time that is none,
    // an object without a list in it. (Text that is no time is text: values are not checked.)
    for (const odd of [{ tags: [{ id: 3 }] }, { updated_at: -5 }, { tags: { total: 0 } }]) {
      const reading = compare(ContactSchema, { ...contact, ...odd });
      expect(reading.value).not.toHaveProperty(Object.keys(odd)[0]!);
      expect(reading.mismatched).toHaveLength(1);
    }
    expect(compare(ContactSchema, { ...contact, updated_at: '12345' }).value).toEqual({
      ...contact,
      updated_at: '12345',
    });
  });

  it('never puts a value into its findings: only names from the schema, keys that are field names, and type names', () => {
    const canary = 'CANARY-5e1f';
    const reshaped = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom(canary, 424242, -0.5, true, null),
        fc.array(tie('value'), { maxLength: 3 }),
        // Keys are names, as paths are made of; a value used as a key shows as *.
        fc.dictionary(
          fc.constantFrom('id', 'phone', 'tags', 'name', 'data', '424242', '+4915112345678', 'ada@example.com'),
          tie('value'),
          { maxKeys: 4 },
        ),
      ),
    })).value;
    fc.assert(
      fc.property(reshaped, (value) => {
        const { value: _, fits: __, ...drift } = compare(ContactSchema, value, 'data');
        const text = JSON.stringify(drift);
        expect(text).not.toContain(canary);
        expect(text).not.toContain('424242');
        expect(text).not.toContain('0.5');
        expect(text).not.toContain('4915112345678');
        expect(text).not.toContain('example.com');
      }),
      { numRuns: 500 },
    );
  });
});

describe('drift reports', () => {
  const report = (drift: Partial<DriftReport>): DriftReport => ({
    source: 'response',
    operation: 'GET /contacts/{id}',
    missing: [],
    unexpected: [],
    mismatched: [],
    ...drift,
  });

  it('are logged once per operation and path: mismatched at warn (a value was lost), missing and unexpected at info', () => {
    const lines: string[] = [];
    const log = logDriftOnce((level, message) => lines.push(`${level} ${message}`), 'left out of the result');
    const first = report({
      missing: ['data.updated_at'],
      unexpected: ['data.vip'],
      mismatched: [{ path: 'data.tags', expected: 'array', received: 'string' }],
    });
    log(first);
    log(first);
    log(report({ operation: 'PUT /contacts/{id}', missing: ['data.updated_at'] }));
    expect(lines).toEqual([
      'info bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.updated_at is missing; read on without it.',
      'warn bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.tags is a string, not an array; left out of the result.',
      'info bizmsg: the service differs from what bizmsg expects in GET /contacts/{id}: data.vip is a field bizmsg does not know; kept.',
      'info bizmsg: the service differs from what bizmsg expects in PUT /contacts/{id}: data.updated_at is missing; read on without it.',
    ]);
  });

  it('name the body itself as "the body" (its path is empty)', () => {
    const lines: string[] = [];
    const log = logDriftOnce((_, message) => lines.push(message), 'left out of the result');
    log(report({ operation: 'GET /contacts', mismatched: [{ path: '', expected: 'array', received: 'object' }] }));
    expect(lines).toEqual([
      'bizmsg: the service differs from what bizmsg expects in GET /contacts: the body is an object, not an array; left out of the result.',
    ]);
  });

  it('remember a bounded number of paths', () => {
    const lines: string[] = [];
    const log = logDriftOnce((_, message) => lines.push(message), 'kept');
    for (let i = 0; i < 1500; i++) log(report({ missing: [`data.f${i}`] }));
    log(report({ missing: ['data.f0'] }));
    expect(lines).toHaveLength(1000);
  });

  it('go to the handler only when something differs; a handler that throws or rejects is reported, not thrown', async () => {
    const failures: unknown[] = [];
    const seen: DriftReport[] = [];
    sendDrift(
      report({}),
      (r) => seen.push(r),
      (e) => failures.push(e),
    );
    expect(seen).toEqual([]);
    expect(isEmptyDrift(report({}))).toBe(true);
    const full = report({ missing: ['data.id'] });
    sendDrift(
      full,
      (r) => seen.push(r),
      (e) => failures.push(e),
    );
    sendDrift(
      full,
      () => {
        throw new Error('sync');
      },
      (e) => failures.push(e),
    );
    sendDrift(
      full,
      () => Promise.reject(new Error('async')) as never,
      (e) => failures.push(e),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([full]);
    expect(failures.map((e) => (e as Error).message)).toEqual(['sync', 'async']);
  });
});

describe('z.int and friends, as the walk reads them', () => {
  it('accepts an integer for an integer and any JSON for unknown', () => {
    const schema = z.looseObject({ n: z.int(), any: z.unknown(), list: z.array(z.int()) });
    expect(compare(schema, { n: 3, any: { deep: [1] }, list: [1, 2] }).fits).toBe(true);
    expect(compare(schema, { n: 3, any: null, list: [1, 2.5] }).mismatched).toEqual([
      { path: 'list[]', expected: 'integer', received: 'number' },
    ]);
  });
});
