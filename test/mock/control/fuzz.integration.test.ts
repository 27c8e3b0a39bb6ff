import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHttpServer, type MockHttpServer } from '../../../src/mock/index.js';
import { CONTROL_ROUTES } from '../../../src/mock/control/routes.js';

let server: MockHttpServer;
beforeAll(async () => {
  server = await startMockHttpServer({ variant: 1, seed: { contacts: [{ name: 'Ada', phone: '+4915112345678' }] } });
  server.mock.receiveMessage({ from: '+4915112345678', body: 'hi' });
});
afterAll(() => server.close());

/** Everything a control call could change: the state, the faults and the keys. */
function fingerprint(): string {
  const { now: _now, ...state } = server.mock.state();
  return JSON.stringify([state, server.mock.faults(), [...server.mock.store.keys.values()]]);
}

/** A value of any JSON shape, now and then one of the fields the control routes read, of a wrong type. */
const junkValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom(-1, 0, 1.5, 1e308, -0, '', ' ', 'a'.repeat(300), '\u0000', '+4915112345678', null, true, [], {}),
);
const FIELDS = [
  'ms',
  'from',
  'body',
  'status',
  'assigned_to',
  'url',
  'events',
  'secret',
  'event',
  'data',
  'endpointId',
  'scopes',
  'plan',
  'route',
  'code',
  'networkError',
  'delay',
  'times',
  'rate',
];
const junkBody = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELDS), junkValue, { maxKeys: 4 }).map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.string({ maxLength: 60 }),
  fc.uint8Array({ maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);
const junkQuery = fc
  .dictionary(
    fc.constantFrom('method', 'path', 'status', 'after', 'before', 'limit', 'deliveries', 'x'),
    fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('-1', '0', '4xx', '999', '1.5', '')),
    { maxKeys: 3 },
  )
  .map((query) => new URLSearchParams(query).toString());
const junkId = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.constantFrom('0', '-1', '1.5', '99999999999999999999', '%00', '%E0%A4%A', '..', 'sk_test_x', '1'),
);

describe('every control route under fuzzed bodies and ids', () => {
  it('answers 4xx JSON naming what was wrong, never a 5xx, and a refused call changes nothing', async () => {
    const seen = new Map<string, number>();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CONTROL_ROUTES),
        junkBody,
        junkId,
        junkQuery,
        fc.constantFrom('application/json', 'text/plain', ''),
        async (route, body, id, query, type) => {
          const segment = encodeURIComponent(id);
          const path = `${route.path.replace('{id}', segment).replace('{key}', segment)}${query === '' ? '' : `?${query}`}`;
          const before = fingerprint();
          const response = await fetch(`${server.origin}${path}`, {
            method: route.method,
            headers: type === '' ? {} : { 'content-type': type },
            ...(route.method === 'GET' ? {} : { body }),
          });
          // A stream never ends by itself: its head says enough, and reading stops there.
          const streaming = route.events !== undefined && response.ok;
          if (streaming) await response.body!.cancel();
          const text = streaming ? '' : await response.text();
          seen.set(
            `${route.method} ${route.path} ${response.status}`,
            (seen.get(`${route.method} ${route.path} ${response.status}`) ?? 0) + 1,
          );
          expect(response.status, `${route.method} ${path} ${body}`).toBeLessThan(500);
          if (streaming) expect(response.headers.get('content-type')).toBe('text/event-stream');
          if (response.ok) return;
          expect(fingerprint(), `${route.method} ${path} ${body} -> ${text}`).toBe(before);
          const { error } = JSON.parse(text) as { error: { code: string; message: string; details: unknown } };
          expect([typeof error.code, typeof error.message, typeof error.details]).toEqual([
            'string',
            'string',
            'object',
          ]);
          expect(error.message.length).toBeGreaterThan(10);
        },
      ),
      { numRuns: 600 },
    );
    // Every route was reached, and refused at least once.
    const refused = new Set([...seen.keys()].filter((k) => !/ 2\d\d$/.test(k)).map((k) => k.replace(/ \d+$/, '')));
    expect([...refused].sort()).toEqual(
      CONTROL_ROUTES.map((r) => `${r.method} ${r.path}`)
        .filter(
          // These take nothing that could be wrong.
          (r) =>
            !/^GET \/_bizmsg\/(health|faults|stream)$/.test(r) &&
            !/^POST \/_bizmsg\/(reset|clock\/stop|clock\/start)$/.test(r) &&
            r !== 'DELETE /_bizmsg/faults',
        )
        .sort(),
    );
    console.log(
      `control API fuzz: 600 calls over ${CONTROL_ROUTES.length} routes; statuses: ${[...new Set([...seen.keys()].map((k) => k.split(' ').at(-1)))].sort().join(', ')}`,
    );
  }, 60_000);
});
