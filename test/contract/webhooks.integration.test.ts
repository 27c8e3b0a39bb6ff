import { readFileSync } from 'node:fs';
import { compareShape } from '../../src/contract/drift.js';
import { shapeOfSchema } from '../../src/contract/shape.js';
import { EVENT_DATA_MARKS, EVENT_SCHEMAS } from '../../src/contract/event-fields.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMockServer, MAGIC_NUMBERS, MockService, openApiDocument } from '../../src/mock/index.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEventKind } from '../../src/schemas/event-kinds.js';
import { WebhookEventSchema } from '../../src/schemas/webhook-event.js';
import { parseWebhook } from '../../src/webhooks/index.js';
import { startTestServer } from '../helpers/http-server.js';
import { rawApi } from '../helpers/mock-api.js';
import { OpenApiContract } from '../helpers/openapi-contract.js';

const SECRET = 'whsec_contract';

/** How an event the mock sent differs from its kind's schema and marks: it must not. */
const driftOf = (event: { event: WebhookEventKind }) => {
  const { missing, unexpected, mismatched } = compareShape(shapeOfSchema(EVENT_SCHEMAS.get(event.event)!), event);
  return { missing, unexpected, mismatched };
};
const NO_DRIFT = { missing: [], unexpected: [], mismatched: [] };

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
      expect(driftOf(body), request.body).toEqual(NO_DRIFT);
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
    samples.pause();
    for (const body of received) {
      const event = JSON.parse(body) as { event: WebhookEventKind; data: object };
      expect(WebhookEventSchema.safeParse(event).error, body).toBeUndefined();
      expect(driftOf(event), body).toEqual(NO_DRIFT);
    }
  });

  it('carry the fields docs/webhook-events.md lists for each kind, in the columns of their marks', () => {
    const table = readFileSync(new URL('../../docs/webhook-events.md', import.meta.url), 'utf8');
    for (const kind of WEBHOOK_EVENT_KINDS) {
      const row = table.split('\n').find((line) => line.startsWith(`| \`${kind}\``))!;
      const [shown, always, maybe] = row
        .split('|')
        .slice(2, 5)
        .map((cell) => [...cell.matchAll(/`([a-z_]+)`/g)].map(([, field]) => field).sort());
      const marked = (...marks: string[]) =>
        Object.entries(EVENT_DATA_MARKS[kind])
          .filter(([, mark]) => marks.includes(mark))
          .map(([field]) => field)
          .sort();
      expect({ shown, always, maybe }, kind).toEqual({
        shown: marked('shown', 'shown?'),
        always: marked('guessed', 'promised'),
        maybe: marked('guessed?'),
      });
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
