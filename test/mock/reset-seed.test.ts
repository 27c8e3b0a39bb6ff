// reset() goes back to the seed: a seeded webhook endpoint that its failing deliveries disabled comes
// back active, with no failure left (no retry waiting, no attempt, no e-mail), and a seeded contact
// as the seed describes it, whatever was done to the store before. And a receiver that hung before
// the reset holds none of the delivery turns after it. All in process: the mock and the receiver are
// msw handlers of one setupServer, on the virtual clock.
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WEBHOOK_RETRY_DELAYS_MS } from '../../src/contract/webhooks.js';
import { createMockServer, type MockSeed } from '../../src/mock/index.js';

const RECEIVER = 'https://app.test/webhooks/bizmsg';
const SECRET = 'whsec_reset';

const seed = {
  contacts: [{ name: 'Ada', phone: '+447700900124', custom_fields: { prefs: { lang: 'en', slots: ['Tue'] } } }],
  webhooks: [{ url: RECEIVER, events: ['message.received'], secret: SECRET }],
} satisfies MockSeed;
/** The seed as it was passed: reset must not change it either. */
const seedAsPassed = structuredClone(seed);
const mock = createMockServer({ variant: 2, baseUrl: 'https://reset.bizmsg.test/api/v1', seed });

/** How the receiver answers now: down (503), hanging (never), or up (200). */
let receiver: 'down' | 'hanging' | 'up';
const server = setupServer(
  ...mock.handlers,
  http.post(RECEIVER, () =>
    receiver === 'up'
      ? new HttpResponse(null, { status: 200 })
      : receiver === 'down'
        ? new HttpResponse(null, { status: 503 })
        : new Promise<never>(() => undefined),
  ),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  await mock.clock.settled();
  mock.reset();
  mock.clock.stop();
  receiver = 'up';
});
afterAll(() => {
  server.close();
  mock.pause();
});

/** The seeded endpoint as a fresh store holds it: active, no `disabled_at` (made when the store was, a moment before the clock stopped). */
const seededEndpoint = () => ({
  id: 1,
  url: RECEIVER,
  events: ['message.received'],
  secret: SECRET,
  status: 'active',
  created_at: expect.any(String),
});

describe('reset() brings back every seeded record as the seed describes it', () => {
  it('a seeded endpoint its failing deliveries disabled: active, with no failure left (no retry waiting, no attempt, no e-mail)', async () => {
    receiver = 'down';
    await mock.emit('message.received');
    // Through the whole retry schedule: the last retry fails, and the endpoint is disabled.
    for (const delay of WEBHOOK_RETRY_DELAYS_MS) await mock.clock.advance(delay);
    const disabled = mock.state();
    expect(disabled.webhooks).toEqual([{ ...seededEndpoint(), status: 'disabled', disabled_at: expect.any(String) }]);
    expect(disabled.deliveries.map((attempt) => attempt.status)).toEqual([503, 503, 503, 503, 503, 503]);
    expect(disabled.emails.map((email) => email.subject)).toEqual([`Webhook endpoint ${RECEIVER} disabled`]);

    mock.reset();
    mock.clock.stop();

    const after = mock.state();
    expect(after.webhooks).toEqual([seededEndpoint()]);
    expect([after.deliveries, after.emails, after.pending]).toEqual([[], [], []]);
    expect(mock.store.webhookEndpoints[0]).not.toHaveProperty('disabled_at');
    // It is heard again: the next event is delivered to it.
    receiver = 'up';
    const [attempt] = await mock.emit('message.received');
    expect([attempt?.endpointId, attempt?.status, attempt?.attempt]).toEqual([1, 200, 1]);
  });

  it('a seeded contact whose nested custom fields were changed in the store', () => {
    const [ada] = mock.store.contacts;
    const prefs = ada!.custom_fields.prefs as { lang: string; slots: string[] };
    prefs.lang = 'fr';
    prefs.slots.push('Wed');

    mock.reset();

    expect(mock.store.contacts[0]!.custom_fields).toEqual({ prefs: { lang: 'en', slots: ['Tue'] } });
    expect(seed).toEqual(seedAsPassed);
  });

  it("each store's own copy: no record of one store, nor of the seed passed, is the next store's", () => {
    const endpoint = mock.store.webhookEndpoints[0]!;
    const contact = mock.store.contacts[0]!;

    mock.reset();

    expect(mock.store.webhookEndpoints[0]).not.toBe(endpoint);
    expect(mock.store.webhookEndpoints[0]!.events).not.toBe(endpoint.events);
    expect(mock.store.contacts[0]!.custom_fields.prefs).not.toBe(contact.custom_fields.prefs);
    expect(mock.store.contacts[0]!.custom_fields.prefs).not.toBe(seed.contacts[0]!.custom_fields.prefs);
  });
});

describe('reset() while deliveries to a hung receiver hold every turn', () => {
  it('ends them: the first delivery after it is sent, not refused for want of a turn', async () => {
    receiver = 'hanging';
    // 32 in flight and 1000 waiting their turn: one more would not be sent.
    const flood = Array.from({ length: 1033 }, () => mock.emit('message.received'));
    const [refused] = await flood.at(-1)!;
    expect(refused?.error).toBe("not sent: 32 deliveries were in flight and 1000 waiting (the mock's bound)");

    mock.reset();
    mock.clock.stop();
    receiver = 'up';

    const [attempt] = await mock.emit('message.received');
    expect([attempt?.status, attempt?.error]).toEqual([200, null]);
    expect(mock.state().webhooks).toEqual([seededEndpoint()]);
    // The deliveries of the store that is gone ended at once, saying why; none is in the new store.
    const ended = await Promise.all(flood.slice(0, 1032));
    expect(new Set(ended.flat().map((gone) => gone.error))).toEqual(
      new Set(['not answered: the mock was reset while the delivery was under way']),
    );
    expect(mock.deliveries.map((kept) => kept.id)).toEqual([attempt?.id]);
  });
});
