import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { REDELIVERY_SPAN_MS } from '../../src/contract/webhooks.js';
import { RECEIVER_MAX_AGE } from '../../src/webhooks/events/parse-event.js';
import {
  InvalidArgumentError,
  parseWebhook,
  parseWebhookAsync,
  signWebhook,
  WEBHOOK_EVENT_KINDS,
  WebhookVerificationError,
  type DriftReport,
  type WebhookEvent,
} from '../../src/webhooks/index.js';
import { EVENT_DATA } from '../helpers/event-samples.js';

const SECRET = 'whsec_parse';
const delivered = {
  event: 'message.delivered',
  timestamp: '2026-11-21T10:00:00Z',
  data: {
    message_id: 'msg_1',
    to: '4915112345678',
    status: 'delivered',
    delivered_at: '2026-11-21T10:00:00Z',
    extra: 1,
  },
};

function failure(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    return error as WebhookVerificationError;
  }
  throw new Error('expected a failure');
}

describe('parseWebhook', () => {
  it('verifies and returns the typed event, unknown fields kept', async () => {
    const body = JSON.stringify(delivered);
    const event = parseWebhook(body, signWebhook(body, SECRET), SECRET);
    expect(event).toEqual(delivered);
    expect(await parseWebhookAsync(body, signWebhook(body, SECRET), SECRET)).toEqual(delivered);
    if (event.event === 'message.delivered') expectTypeOf(event.data.delivered_at).toEqualTypeOf<string>();
  });

  it.each(WEBHOOK_EVENT_KINDS)('parses %s', (kind) => {
    const body = JSON.stringify({
      event: kind,
      timestamp: '2026-11-21T10:00:00Z',
      data: { ...EVENT_DATA[kind], added_later: { by: 'the service' } },
    });
    expect(parseWebhook(body, signWebhook(body, SECRET), SECRET)).toEqual(JSON.parse(body));
  });

  it.each([
    ['message.received', 'from', 'missing'],
    ['message.sent', 'to', 'missing'],
    ['message.read', 'message_id', 'missing'],
    ['message.failed', 'status', 'number'],
    ['conversation.closed', 'conversation_id', 'boolean'],
    ['contact.updated', 'id', 'missing'],
    ['campaign.completed', 'campaign_id', 'missing'],
  ] as const)('returns %s without its %s as sent, and reports the drift', async (kind, field, received) => {
    const data: Record<string, unknown> = { ...EVENT_DATA[kind] };
    if (received === 'missing') delete data[field];
    else data[field] = received === 'number' ? 3 : true;
    const body = JSON.stringify({ event: kind, timestamp: '2026-11-21T10:00:00Z', data });
    const reports: DriftReport[] = [];
    const onDrift = (report: DriftReport) => void reports.push(report);
    expect(parseWebhook(body, signWebhook(body, SECRET), SECRET, { onDrift })).toEqual(JSON.parse(body));
    expect(await parseWebhookAsync(body, signWebhook(body, SECRET), SECRET, { onDrift })).toEqual(JSON.parse(body));
    const expected =
      received === 'missing'
        ? { missing: [`data.${field}`], mismatched: [] }
        : {
            missing: [],
            mismatched: [
              { path: `data.${field}`, expected: received === 'number' ? 'string' : 'string | number', received },
            ],
          };
    expect(reports).toEqual([0, 1].map(() => ({ source: 'webhook', operation: kind, unexpected: [], ...expected })));
  });

  it('reads timestamps in any ISO 8601 form or since the epoch for the age check, reporting those that are no ISO string', () => {
    const sentAt = Date.parse('2026-11-21T10:00:00Z');
    const reports: DriftReport[] = [];
    const onDrift = (report: DriftReport) => void reports.push(report);
    for (const timestamp of [
      '2026-11-21T12:00:00+02:00',
      '2026-11-21 10:00:00Z',
      '20261121T100000Z',
      '2026-11-21T10:00:00.000',
      sentAt / 1000,
      sentAt,
      String(sentAt / 1000),
    ]) {
      const body = JSON.stringify({ ...delivered, timestamp });
      const signature = signWebhook(body, SECRET);
      expect(parseWebhook(body, signature, SECRET, { maxAgeSeconds: 60, now: sentAt + 59_000, onDrift })).toEqual(
        JSON.parse(body),
      );
      expect(
        failure(() => parseWebhook(body, signature, SECRET, { maxAgeSeconds: 60, now: sentAt + 61_000, onDrift }))
          .reason,
      ).toBe('stale');
    }
    const timestampDrift = reports.map((report) => report.mismatched.filter((m) => m.path === 'timestamp'));
    expect(timestampDrift).toEqual([
      ...Array.from({ length: 4 }, () => []),
      [{ path: 'timestamp', expected: 'string', received: 'number' }],
      [{ path: 'timestamp', expected: 'string', received: 'number' }],
      [{ path: 'timestamp', expected: 'string (ISO 8601)', received: 'string (epoch)' }],
    ]);
  });

  it('skips the age check for a timestamp it cannot read, and reports it', () => {
    for (const [timestamp, drift] of [
      ['soon', { mismatched: [{ path: 'timestamp', expected: 'date-time', received: 'string' }], missing: [] }],
      [{ at: 'noon' }, { mismatched: [{ path: 'timestamp', expected: 'string', received: 'object' }], missing: [] }],
      [undefined, { mismatched: [], missing: ['timestamp'] }],
    ] as const) {
      const body = JSON.stringify({ ...delivered, timestamp });
      const reports: DriftReport[] = [];
      const event = parseWebhook(body, signWebhook(body, SECRET), SECRET, {
        maxAgeSeconds: 1,
        now: 0,
        onDrift: (report) => void reports.push(report),
      });
      expect(event).toEqual(JSON.parse(body));
      expect(reports).toEqual([
        { source: 'webhook', operation: 'message.delivered', unexpected: ['data.extra'], ...drift },
      ]);
    }
  });

  it.each([
    [undefined, 'missing_signature', 'The X-Service-Signature header is missing.'],
    ['', 'missing_signature', 'The X-Service-Signature header is missing.'],
    [
      'md5=abc',
      'malformed_signature',
      'The X-Service-Signature header is not a SHA-256 hex digest (bare or sha256=<hex>).',
    ],
    [`sha256=${'0'.repeat(64)}`, 'mismatch', 'The signature does not match the body under the given secret.'],
  ])('signature %j -> %s', (signature, reason, message) => {
    const error = failure(() => parseWebhook(JSON.stringify(delivered), signature, SECRET));
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect([error.reason, error.message]).toEqual([reason, message]);
  });

  const NOT_AN_EVENT = 'The body is not an event: a JSON object with a string `event` and an object `data`.';
  it.each([
    ['not json', 'The body is not valid UTF-8 JSON.'],
    ['[]', NOT_AN_EVENT],
    ['null', NOT_AN_EVENT],
    ['{"event":7,"timestamp":"x","data":{}}', NOT_AN_EVENT],
    ['{"timestamp":"2026-11-21T10:00:00Z","data":{}}', NOT_AN_EVENT],
    ['{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z"}', NOT_AN_EVENT],
    ['{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z","data":[]}', NOT_AN_EVENT],
    ['{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z","data":"msg_1"}', NOT_AN_EVENT],
  ])('a signed body that is no event %s -> malformed_payload', (body, message) => {
    const error = failure(() => parseWebhook(body, signWebhook(body, SECRET), SECRET));
    expect([error.reason, error.message]).toEqual(['malformed_payload', message]);
  });

  it('rejects invalid UTF-8 bytes as malformed', () => {
    const body = new Uint8Array([0x7b, 0xff, 0x7d]);
    expect(failure(() => parseWebhook(body, signWebhook(body, SECRET), SECRET)).reason).toBe('malformed_payload');
  });

  it('parses a body nested a million levels deep without exhausting the stack', () => {
    const sent = JSON.stringify(EVENT_DATA['message.sent']).slice(1, -1);
    const deep = (inner: string) =>
      `{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z","data":{${sent},"deep":${inner}}}`;
    const arrays = deep(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(parseWebhook(arrays, signWebhook(arrays, SECRET), SECRET).event).toBe('message.sent');
    const objects = deep(`${'{"a":'.repeat(1_000_000)}1${'}'.repeat(1_000_000)}`);
    expect(parseWebhook(objects, signWebhook(objects, SECRET), SECRET).event).toBe('message.sent');
    const bare = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(failure(() => parseWebhook(bare, signWebhook(bare, SECRET), SECRET)).reason).toBe('malformed_payload');
  });

  it('returns an event of a kind it does not know as sent, without a drift report', () => {
    const body = JSON.stringify({ event: 'invoice.paid', timestamp: '2026-11-21T10:00:00Z', data: { amount: 5 } });
    const reports: DriftReport[] = [];
    const event = parseWebhook(body, signWebhook(body, SECRET), SECRET, { onDrift: (r) => void reports.push(r) });
    expect(event).toEqual(JSON.parse(body));
    expect(WEBHOOK_EVENT_KINDS).not.toContain(event.event);
    expect(reports).toEqual([]);
  });

  it('drops __proto__ keys however they are written, so that no handler merging the data changes a prototype', () => {
    for (const body of [
      '{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z","data":{"__proto__":{"polluted":1},"a":1}}',
      '{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z","data":{"\\u005f_proto__":{"polluted":1},"a":1}}',
    ]) {
      const event = parseWebhook(body, signWebhook(body, SECRET), SECRET, { onDrift: () => undefined });
      expect(Object.keys(event.data)).toEqual(['a']);
      expect(Object.getPrototypeOf(event.data)).toBe(Object.prototype);
      expect(Object.assign({}, event.data)).not.toHaveProperty('polluted');
    }
  });

  it('logs each drift once per process to the console without onDrift, and a throwing onDrift does not fail the parse', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const body = JSON.stringify({ ...delivered, data: { ...delivered.data, to: 4915112345678 } });
    const signature = signWebhook(body, SECRET);
    parseWebhook(body, signature, SECRET);
    parseWebhook(body, signature, SECRET);
    expect(warn.mock.calls).toEqual([
      [
        'bizmsg: the service differs from what bizmsg expects in message.delivered: data.to is a number, not a string; returned as sent.',
      ],
    ]);
    expect(
      parseWebhook(body, signature, SECRET, {
        onDrift: () => {
          throw new Error('oops');
        },
      }),
    ).toEqual(JSON.parse(body));
    expect(error.mock.calls).toEqual([['bizmsg: onDrift threw', new Error('oops')]]);
    expect(JSON.stringify(warn.mock.calls)).not.toContain('4915112345678');
  });

  it('checks the age only when maxAgeSeconds is given', () => {
    const body = JSON.stringify(delivered);
    const signature = signWebhook(body, SECRET);
    const dayLater = Date.parse(delivered.timestamp) + 26 * 3600 * 1000;
    expect(parseWebhook(body, signature, SECRET, { now: dayLater })).toEqual(delivered);
    expect(parseWebhook(body, signature, SECRET, { maxAgeSeconds: 30 * 3600, now: dayLater })).toEqual(delivered);
    const stale = failure(() => parseWebhook(body, signature, SECRET, { maxAgeSeconds: 300, now: new Date(dayLater) }));
    expect([stale.reason, stale.message]).toEqual(['stale', 'The event is 93600 s old, outside maxAgeSeconds (300).']);
    const early = failure(() =>
      parseWebhook(body, signature, SECRET, { maxAgeSeconds: 60, now: Date.parse(delivered.timestamp) - 120_000 }),
    );
    expect(early.message).toBe('The event is 120 s in the future, outside maxAgeSeconds (60).');
    expect(() => parseWebhook(body, signature, SECRET, { maxAgeSeconds: 0 })).toThrow(
      'parseWebhook: maxAgeSeconds must be a positive number of seconds, got 0.',
    );
  });

  it.each([
    ['garbage', 'got "garbage"'],
    [Number.NaN, 'got NaN'],
    [Number.POSITIVE_INFINITY, 'got Infinity'],
    [{}, 'got an object'],
    [new Date('not a date'), 'got an invalid Date'],
    [null, 'got null'],
    ['2026-11-21T10:00:00Z', 'got "2026-11-21T10:00:00Z"'],
  ])('rejects now = %s as an argument error before judging the delivery, sync and async', async (now, got) => {
    const ancient = JSON.stringify({ ...delivered, timestamp: '2001-01-01T00:00:00Z' });
    const message = `now must be a valid Date or a number of milliseconds since the epoch (Date.now()), ${got}.`;
    for (const signature of [signWebhook(ancient, SECRET), 'not a signature']) {
      for (const options of [{ maxAgeSeconds: 60, now }, { now }] as never[]) {
        expect(() => parseWebhook(ancient, signature, SECRET, options)).toThrow(
          new InvalidArgumentError(`parseWebhook: ${message}`),
        );
        await expect(parseWebhookAsync(ancient, signature, SECRET, options)).rejects.toThrow(
          new InvalidArgumentError(`parseWebhookAsync: ${message}`),
        );
      }
    }
  });

  it('throws InvalidArgumentError, not a verification error, for programming mistakes', () => {
    expect(() => parseWebhook(delivered as never, 'x', SECRET)).toThrow(InvalidArgumentError);
    expect(() => parseWebhook(JSON.stringify(delivered), 'x', '')).toThrow(InvalidArgumentError);
    expect(() => parseWebhook(JSON.stringify(delivered), 'x', SECRET, null as never)).toThrow(
      new InvalidArgumentError(
        'parseWebhook: options must be an object ({ maxAgeSeconds?, now?, onDrift? }), got null.',
      ),
    );
    expect(() => parseWebhook(JSON.stringify(delivered), 'x', SECRET, { maxAgeSeconds: Number.NaN })).toThrow(
      new InvalidArgumentError('parseWebhook: maxAgeSeconds must be a positive number of seconds, got NaN.'),
    );
    expect(() => parseWebhook(JSON.stringify(delivered), 'x', SECRET, { onDrift: 'log' as never })).toThrow(
      new InvalidArgumentError('parseWebhook: onDrift must be a function, got "log".'),
    );
  });

  it('serialises the error with its reason', () => {
    const error = failure(() => parseWebhook('{}', undefined, SECRET));
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'WebhookVerificationError',
      message: 'The X-Service-Signature header is missing.',
      reason: 'missing_signature',
    });
  });
});

it('WebhookEvent is a union discriminated by event', () => {
  expectTypeOf<WebhookEvent['event']>().toEqualTypeOf<(typeof WEBHOOK_EVENT_KINDS)[number]>();
});

describe("the receivers' default maximum age", () => {
  it('is the service’s retries rounded up to whole hours (a literal in the source, so that a bundle can drop it)', () => {
    expect(RECEIVER_MAX_AGE).toEqual({ seconds: Math.ceil(REDELIVERY_SPAN_MS / 3_600_000) * 3600, pastOnly: true });
    expect(RECEIVER_MAX_AGE.seconds).toBe(27 * 3600);
  });
});
