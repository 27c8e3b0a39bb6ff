import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  InvalidArgumentError,
  parseWebhook,
  parseWebhookAsync,
  signWebhook,
  WEBHOOK_EVENT_KINDS,
  WebhookVerificationError,
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
    ['message.received', 'from', 'is required'],
    ['message.sent', 'to', 'is required'],
    ['message.read', 'message_id', 'is required'],
    ['message.failed', 'status', 'must be a string'],
    ['conversation.closed', 'conversation_id', 'must be a string or a number'],
    ['contact.updated', 'id', 'is required'],
    ['campaign.completed', 'campaign_id', 'is required'],
  ] as const)('refuses %s without its %s', (kind, field, problem) => {
    const data: Record<string, unknown> = { ...EVENT_DATA[kind] };
    if (problem === 'is required') delete data[field];
    else data[field] = field === 'status' ? 3 : true;
    const body = JSON.stringify({ event: kind, timestamp: '2026-11-21T10:00:00Z', data });
    const error = failure(() => parseWebhook(body, signWebhook(body, SECRET), SECRET));
    expect([error.reason, error.message]).toEqual([
      'malformed_payload',
      `The event does not have the expected shape at data.${field}: ${problem}.`,
    ]);
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

  it.each([
    ['not json', 'The body is not valid UTF-8 JSON.'],
    ['[]', 'The event does not have the expected shape: must be an object.'],
    [
      '{"event":7,"timestamp":"x","data":{}}',
      'The event does not have the expected shape at event: must be one of message.received, message.sent, message.delivered, message.read, message.failed, conversation.created, conversation.closed, contact.created, contact.updated, campaign.completed.',
    ],
    [
      JSON.stringify({ ...delivered, data: { ...delivered.data, message_id: 5 } }),
      'The event does not have the expected shape at data.message_id: must be a string.',
    ],
    [
      JSON.stringify({ event: 'contact.created', data: {} }),
      'The event does not have the expected shape at timestamp: is required.',
    ],
  ])('a signed but malformed body %s -> malformed_payload', (body, message) => {
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

  it('names an event kind it does not know', () => {
    const body = JSON.stringify({ event: 'invoice.paid', timestamp: '2026-11-21T10:00:00Z', data: {} });
    const error = failure(() => parseWebhook(body, signWebhook(body, SECRET), SECRET));
    expect([error.reason, error.message]).toEqual(['unknown_event', 'Unknown event kind "invoice.paid".']);
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
      new InvalidArgumentError('parseWebhook: options must be an object ({ maxAgeSeconds?, now? }), got null.'),
    );
    expect(() => parseWebhook(JSON.stringify(delivered), 'x', SECRET, { maxAgeSeconds: Number.NaN })).toThrow(
      new InvalidArgumentError('parseWebhook: maxAgeSeconds must be a positive number of seconds, got NaN.'),
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
