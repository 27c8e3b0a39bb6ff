import { readFileSync } from 'node:fs';
import type * as z from 'zod/mini';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, MAGIC_NUMBERS, MockService, openApiDocument } from '../../src/mock/index.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../../src/schemas/webhook-endpoint.js';
import { WebhookEventSchema } from '../../src/schemas/webhook-event.js';
import { parseWebhook } from '../../src/webhooks/index.js';
import { startTestServer } from '../helpers/http-server.js';
import { rawApi } from '../helpers/mock-api.js';
import { OpenApiContract } from '../helpers/openapi-contract.js';

const SECRET = 'whsec_contract';

/** The shape of the `data` schema of `kind`: its fields by name. */
function dataShape(kind: WebhookEventKind): Record<string, z.ZodMiniType> {
  const shapeOf = (schema: z.ZodMiniType) =>
    (schema._zod.def as unknown as { shape: Record<string, z.ZodMiniType> }).shape;
  const options = WebhookEventSchema._zod.def.options as readonly z.ZodMiniType[];
  const event = options.find((option) => option._zod.propValues!.event!.has(kind))!;
  return shapeOf(shapeOf(event).data!);
}

/** The fields each kind's schema knows: the mock sends no other. */
const DATA_FIELDS = new Map(WEBHOOK_EVENT_KINDS.map((kind) => [kind, new Set(Object.keys(dataShape(kind)))]));
/** The fields of `event`'s data that its kind's schema does not know. */
const unknownFields = (event: { event: WebhookEventKind; data: object }) =>
  Object.keys(event.data).filter((field) => !DATA_FIELDS.get(event.event)!.has(field));

let receiver: Awaited<ReturnType<typeof startTestServer>>;
const mock = createMockServer({ variant: 2, baseUrl: 'https://contract-webhooks.bizmsg.test/api/v1' });
beforeAll(async () => {
  receiver = await startTestServer((_, res) => res.writeHead(204).end());
  mock.listen();
});
afterAll(async () => {
  mock.close();
  await receiver.close();
});

describe('webhook deliveries of the mock', () => {
  it('fit the webhooks of the OpenAPI document, and parseWebhook reads every kind', async () => {
    mock.registerWebhook({ url: `${receiver.origin}/hooks`, events: [...WEBHOOK_EVENT_KINDS], secret: SECRET });
    const api = rawApi(mock);
    await api('POST', '/contacts', { body: { name: 'Ada', phone: '4915112345678', tags: ['vip'] } });
    await api('PUT', '/contacts/1', { body: { email: 'ada@example.com' } });
    await api('POST', '/messages/send', {
      body: { to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    });
    await api('POST', '/messages/send', {
      body: { to: MAGIC_NUMBERS.fails, messaging_account_id: 1, type: 'text', content: { body: 'Hi' } },
    });
    mock.receiveMessage({ from: '4915112345678', body: 'Thanks' });
    mock.updateConversation(1, { status: 'closed' });
    await api('POST', '/campaigns', {
      body: {
        name: 'Spring',
        messaging_account_id: 1,
        template_name: 'promo',
        segment_id: 2,
        scheduled_at: new Date(mock.clock.now() + 1000).toISOString(),
      },
    });
    await mock.clock.advance(6000);

    const contract = new OpenApiContract(openApiDocument(2));
    const kinds = new Set<string>();
    for (const request of receiver.received) {
      const headers = new Headers(request.headers as Record<string, string>);
      const body = JSON.parse(request.body) as { event: WebhookEventKind; data: object };
      expect(contract.webhookProblems(body.event, headers, body), request.body).toEqual([]);
      expect(parseWebhook(request.body, headers.get('x-service-signature'), SECRET)).toEqual(body);
      expect(unknownFields(body), request.body).toEqual([]);
      kinds.add(body.event);
    }
    expect([...kinds].sort()).toEqual([...WEBHOOK_EVENT_KINDS].sort());
  });

  it('emit() sends a sample of every kind that parses, from an empty store and from a full one', async () => {
    const samples = new MockService({ variant: 2, seed: { contacts: [{ name: 'Ada', phone: '4915112345678' }] } });
    const received: string[] = [];
    samples.registerWebhook({ url: `${receiver.origin}/samples`, events: [...WEBHOOK_EVENT_KINDS], secret: SECRET });
    const emitAll = async () => {
      for (const kind of WEBHOOK_EVENT_KINDS) {
        const [attempt] = await samples.emit(kind);
        received.push(attempt!.request.body);
      }
    };
    await emitAll();
    await samples.handle(
      new Request(`${samples.baseUrl}/messages/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${samples.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to: '4915112345678', messaging_account_id: 1, type: 'text', content: { body: 'Hi' } }),
      }),
    );
    samples.receiveMessage({ from: '4915112345678', body: 'Thanks' });
    await samples.clock.advance(6000);
    await emitAll();
    samples.stop();
    for (const body of received) {
      const event = JSON.parse(body) as { event: WebhookEventKind; data: object };
      expect(WebhookEventSchema.safeParse(event).error, body).toBeUndefined();
      expect(unknownFields(event), body).toEqual([]);
    }
  });

  it('carry the fields docs/webhook-events.md lists for each kind, those in bold always', () => {
    const table = readFileSync(new URL('../../docs/webhook-events.md', import.meta.url), 'utf8');
    for (const kind of WEBHOOK_EVENT_KINDS) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`${kind}\``))!;
      const cell = row.split('|')[2]!;
      const listed = [...cell.matchAll(/(\*\*)?`([a-z_]+)`/g)].map(([, bold, field]) => [field, bold !== undefined]);
      const known = Object.entries(dataShape(kind)).map(([field, schema]) => [field, schema._zod.optin !== 'optional']);
      expect(listed.sort(), kind).toEqual(known.sort());
    }
  });

  it('are described the same in both variants', () => {
    const [v1, v2] = [openApiDocument(1), openApiDocument(2)] as any[];
    expect(v1.webhooks).toEqual(v2.webhooks);
    for (const kind of WEBHOOK_EVENT_KINDS) {
      const name = v2.webhooks[kind].post.requestBody.content['application/json'].schema.$ref.split('/').pop();
      expect(v1.components.schemas[name]).toEqual(v2.components.schemas[name]);
    }
  });
});
