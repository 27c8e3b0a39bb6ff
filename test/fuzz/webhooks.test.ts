import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  parseWebhook,
  parseWebhookAsync,
  signWebhook,
  verifyWebhook,
  verifyWebhookAsync,
  WEBHOOK_EVENT_KINDS,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { EVENT_DATA } from '../helpers/event-samples.js';

/**
 * Fuzz of the verification entry points with any payload, signature, secret and options.
 * Expected outcomes come from an independent model of the contract (design.md), computed
 * here with node:crypto; the sync and async functions must agree exactly.
 */

/** Cases per property; BIZMSG_SOAK=long runs many more. */
const RUNS = process.env.BIZMSG_SOAK === 'long' ? 10_000 : 400;
/** Generous: the machine may be busy with other suites, and a long run is long. */
const TIMEOUT_MS = process.env.BIZMSG_SOAK === 'long' ? 30 * 60_000 : 60_000;

/** Any value at all: boxed primitives, maps, sets, dates, typed and sparse arrays, null-prototype objects. */
const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
});

/** What a call did: returned a value, or threw (the caller's name taken out of the message, so sync and async compare). */
type Outcome = { value: unknown } | { error: string; message: string; reason?: string };

function outcomeOf(run: () => unknown, caller: string): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    return describeError(error, caller);
  }
}

async function asyncOutcomeOf(run: () => Promise<unknown>, caller: string): Promise<Outcome> {
  try {
    return { value: await run() };
  } catch (error) {
    return describeError(error, caller);
  }
}

function describeError(error: unknown, caller: string): Outcome {
  const { name, message } = error as Error;
  const reason = error instanceof WebhookVerificationError ? { reason: error.reason } : {};
  return {
    error: error instanceof WebhookVerificationError ? 'WebhookVerificationError' : name,
    message: message.replaceAll(caller, '<caller>'),
    ...reason,
  };
}

/** Every InvalidArgumentError names what to pass instead. */
const ARGUMENT_FIXES = [
  /^<caller> needs the raw request body \(string, Buffer, Uint8Array or ArrayBuffer\), got .+\. The signature covers the exact bytes sent: pass the unparsed body/,
  /^<caller> needs the endpoint's signing secret: a non-empty string, or a non-empty array of them during a rotation\.$/,
  /^<caller>: options must be an object \(\{ .+ \}\), got .+\.$/,
  /^<caller>: maxAgeSeconds must be a positive number of seconds, got .+\.$/,
  /^<caller>: now must be a valid Date or a number of milliseconds since the epoch \(Date\.now\(\)\), got .+\.$/,
  /^<caller> signs with one secret: pass a string\.$/,
  /^<caller>: prefix must be true or false, got .+\.$/,
];

function expectArgumentError(outcome: Outcome): void {
  expect(outcome).toMatchObject({ error: 'InvalidArgumentError' });
  const { message } = outcome as { message: string };
  expect(
    ARGUMENT_FIXES.some((fix) => fix.test(message)),
    message,
  ).toBe(true);
}

// ---- the model ----

function rawBytes(payload: unknown): Buffer | undefined {
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  if (payload instanceof ArrayBuffer) return Buffer.from(payload);
  if (ArrayBuffer.isView(payload)) return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  return undefined;
}

function secretsOf(secret: unknown): string[] | undefined {
  if (typeof secret === 'string') return secret === '' ? undefined : [secret];
  if (Array.isArray(secret) && secret.length > 0 && Array.from(secret).every((s) => typeof s === 'string' && s !== ''))
    return Array.from(secret);
  return undefined;
}

function hmacHex(secret: string, bytes: Buffer): string {
  return createHmac('sha256', secret).update(bytes).digest('hex');
}

/** The lowercase hex digest a signature header carries, if it is well-formed. */
function digestOf(signature: unknown): string | undefined {
  if (typeof signature !== 'string') return undefined;
  let value = signature.trim();
  if (value.length === 71 && value.slice(0, 7).toLowerCase() === 'sha256=') value = value.slice(7);
  return /^[0-9a-f]{64}$/i.test(value) ? value.toLowerCase() : undefined;
}

function modelVerify(bytes: Buffer, signature: unknown, secrets: string[]): boolean {
  const digest = digestOf(signature);
  return digest !== undefined && secrets.some((secret) => hmacHex(secret, bytes) === digest);
}

function optionsAreValid(options: unknown): boolean {
  if (options === undefined) return true;
  if (typeof options !== 'object' || options === null) return false;
  const { maxAgeSeconds, now } = options as Record<string, unknown>;
  const ageOk = maxAgeSeconds === undefined || (typeof maxAgeSeconds === 'number' && maxAgeSeconds > 0);
  const nowOk =
    now === undefined ||
    (typeof now === 'number' ? Number.isFinite(now) : now instanceof Date && !Number.isNaN(now.getTime()));
  return ageOk && nowOk;
}

// ---- generators ----

const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.json());

/** Every form a payload can take, the wrong ones included. */
const payloads = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }) },
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => bytes.slice().buffer),
  fc
    .uint8Array({ minLength: 4, maxLength: 300 })
    .map((bytes) => new Int16Array(bytes.slice().buffer, 2, Math.floor((bytes.length - 2) / 2))),
  fc.uint8Array({ minLength: 2, maxLength: 300 }).map((bytes) => new DataView(bytes.slice().buffer, 1)),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => {
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
    shared.set(bytes);
    return shared;
  }),
  anything,
);

const whitespace = fc.string({
  unit: fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\ufeff', '\u2028'),
  maxLength: 8,
});

/** A signature built from the right hex digest: itself in some form, a near miss, or junk of any type. */
type SignaturePlan = (hex: string) => unknown;

/** A plan that a counterexample prints with its parameters (a function alone prints as its source). */
function plan(parameters: object, build: SignaturePlan): SignaturePlan {
  return Object.assign(build, { [fc.toStringMethod]: () => `signature plan ${fc.stringify(parameters)}` });
}

const signaturePlans: fc.Arbitrary<SignaturePlan> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        upper: fc.boolean(),
        prefix: fc.constantFrom('', 'sha256=', 'SHA256=', 'Sha256='),
        before: whitespace,
        after: whitespace,
      })
      .map((p) => plan(p, (hex) => p.before + p.prefix + (p.upper ? hex.toUpperCase() : hex) + p.after)),
  },
  fc
    .nat(63)
    .map((at) => plan({ flip: at }, (hex) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1))),
  fc.nat(63).map((length) => plan({ truncate: length }, (hex) => hex.slice(0, length))),
  fc.constantFrom<SignaturePlan>(
    (hex) => [hex],
    (hex) => [`sha256=${hex}`],
    (hex) => ({ toString: () => hex }),
    (hex) => new String(hex),
    (hex) => `sha256=sha256=${hex}`,
    (hex) => `sha1=${hex}`,
    (hex) => `${hex}${hex}`,
    (hex) => `sha256=${hex}\u0000`,
    (hex) => `sha256=${hex.slice(0, 63)}g`,
    (hex) => ` `.repeat(1 << 20) + hex + `\n`.repeat(1 << 20),
    () => 'a'.repeat(1 << 22),
    () => undefined,
    () => null,
    () => '',
  ),
  fc
    .oneof(anything, fc.string(), fc.stringMatching(/^(sha256=)?[0-9a-fA-F]{64}$/))
    .map((value) => plan({ value }, () => value)),
);

/** A secret: valid (one or several), or anything else. */
const secrets = fc.oneof(
  { weight: 4, arbitrary: fc.string({ minLength: 1, maxLength: 80, unit: 'binary' }) },
  { weight: 2, arbitrary: fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 4 }) },
  fc.constantFrom('', [], [''], ['ok', ''], ['ok', 7]),
  anything,
);

/** Which secret signs: one the receiver knows (by index) or one it does not. */
const signers = fc.oneof(fc.nat(5), fc.constant('stranger' as const));

function signingSecret(secret: unknown, signer: number | 'stranger'): string {
  const known = secretsOf(secret);
  return known === undefined || signer === 'stranger' ? 'whsec_stranger' : known[signer % known.length]!;
}

describe('verifyWebhook / verifyWebhookAsync under fuzz', () => {
  it(
    'never throw on a signature, return true exactly for the right digest, throw an InvalidArgumentError naming the fix for a bad payload or secret, and agree',
    async () => {
      await fc.assert(
        fc.asyncProperty(payloads, signaturePlans, secrets, signers, async (payload, plan, secret, signer) => {
          const bytes = rawBytes(payload);
          const signature = plan(hmacHex(signingSecret(secret, signer), bytes ?? Buffer.alloc(0)));
          const sync = outcomeOf(() => verifyWebhook(payload as never, signature, secret as never), 'verifyWebhook');
          const async = await asyncOutcomeOf(
            () => verifyWebhookAsync(payload as never, signature, secret as never),
            'verifyWebhookAsync',
          );
          expect(async).toEqual(sync);
          const known = secretsOf(secret);
          if (bytes === undefined || known === undefined) expectArgumentError(sync);
          else expect(sync).toEqual({ value: modelVerify(bytes, signature, known) });
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );
});

// ---- parse ----

const NOW = Date.parse('2026-11-21T10:00:00Z');

/** Events of every kind, `ageSeconds` old, with any extra data beside the fields of their kind. */
function events(ageSeconds: fc.Arbitrary<number>): fc.Arbitrary<string> {
  return fc
    .record({
      event: fc.constantFrom(...WEBHOOK_EVENT_KINDS),
      ageSeconds,
      data: fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }),
    })
    .map(({ event, ageSeconds: age, data }) =>
      JSON.stringify({
        event,
        timestamp: new Date(NOW - age * 1000).toISOString(),
        data: { ...data, ...EVENT_DATA[event] },
      }),
    );
}

/** Bodies: events of every kind at any age, near-events, JSON of any shape, junk, deep nesting, invalid UTF-8. */
const bodies: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  { weight: 4, arbitrary: events(fc.integer({ min: -3 * 86400, max: 30 * 365 * 86400 })) },
  fc
    .record({
      event: fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'toString')),
      timestamp: fc.oneof(fc.string(), fc.jsonValue()),
      data: fc.jsonValue(),
    })
    .map((value) => JSON.stringify(value)),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z","data":{},"__proto__":{"polluted":true}}',
    '{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z","data":{"__proto__":{"polluted":true}}}',
    // Nested, but shallow enough for the deep comparisons here (a million levels: parse.test.ts).
    `{"event":"message.sent","timestamp":"2026-11-21T10:00:00Z","data":{"deep":${'['.repeat(500)}${']'.repeat(500)}}}`,
    `${'['.repeat(500)}${']'.repeat(500)}`,
    '{"event":"message.sent","timestamp":"not a date","data":{}}',
  ),
  fc.string({ unit: 'binary' }),
  fc.uint8Array({ maxLength: 200 }),
);

/** Options: valid ones and anything else. */
const parseOptions = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(
      {
        maxAgeSeconds: fc.option(fc.oneof(fc.integer({ min: 1, max: 40 * 86400 }), fc.double()), { nil: undefined }),
        now: fc.option(
          fc.oneof(fc.constant(NOW), fc.constant(new Date(NOW)), fc.double(), fc.date({ noInvalidDate: false })),
          { nil: undefined },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  fc.constant(undefined),
  fc.record({ maxAgeSeconds: anything, now: anything }, { requiredKeys: [] }),
  anything,
);

/** The payload in the form the receiver might hold it: text, bytes, or any other payload. */
const payloadForms = fc.constantFrom('as is', 'bytes', 'ArrayBuffer', 'Buffer');
function inForm(body: string | Uint8Array, form: string): unknown {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  if (form === 'bytes') return bytes;
  if (form === 'ArrayBuffer') return bytes.slice().buffer;
  if (form === 'Buffer') return Buffer.from(bytes);
  return body;
}

/** The event parseWebhook returns for a JSON body: the same, minus `__proto__` keys at any depth (dropped, never set). */
function asParsed(text: string): unknown {
  return JSON.parse(text, (key, value: unknown) => (key === '__proto__' ? undefined : value));
}

/** An event: a JSON object with a string `event` and an object `data` (whatever else it holds). */
function isEvent(value: unknown): boolean {
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  return (
    isObject(value) &&
    typeof (value as { event?: unknown }).event === 'string' &&
    isObject((value as { data?: unknown }).data)
  );
}

const FAILURES_BEFORE_PARSING = ['missing_signature', 'malformed_signature', 'mismatch'];
const FAILURES_OF_THE_BODY = ['malformed_payload', 'stale'];

describe('parseWebhook / parseWebhookAsync under fuzz', () => {
  // A stopped clock: without `now`, the sync and async calls would read it at different instants.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    // Without onDrift, what differs is logged once per kind and path: not into the test's output.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
  });
  afterEach(() => void vi.useRealTimers());

  it(
    'throw only WebhookVerificationError (or an InvalidArgumentError naming the fix for a bad argument), for the right reason, and agree',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            { weight: 4, arbitrary: fc.tuple(bodies, payloadForms).map(([body, form]) => inForm(body, form)) },
            payloads,
          ),
          fc.oneof({ weight: 3, arbitrary: fc.constant<SignaturePlan>((hex) => `sha256=${hex}`) }, signaturePlans),
          secrets,
          signers,
          parseOptions,
          async (payload, plan, secret, signer, options) => {
            const bytes = rawBytes(payload);
            const signature = plan(hmacHex(signingSecret(secret, signer), bytes ?? Buffer.alloc(0)));
            const sync = outcomeOf(
              () => parseWebhook(payload as never, signature, secret as never, options as never),
              'parseWebhook',
            );
            const async = await asyncOutcomeOf(
              () => parseWebhookAsync(payload as never, signature, secret as never, options as never),
              'parseWebhookAsync',
            );
            expect(async).toEqual(sync);
            expect(Object.prototype).not.toHaveProperty('polluted');
            const known = secretsOf(secret);
            if (bytes === undefined || known === undefined || !optionsAreValid(options)) {
              expectArgumentError(sync);
            } else if (!modelVerify(bytes, signature, known)) {
              const reason =
                signature === undefined || signature === null || signature === ''
                  ? 'missing_signature'
                  : digestOf(signature) === undefined
                    ? 'malformed_signature'
                    : 'mismatch';
              expect(sync).toMatchObject({ error: 'WebhookVerificationError', reason });
            } else if ('value' in sync) {
              const event = sync.value as { event: string; timestamp: string };
              expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
              expect(isEvent(event)).toBe(true);
              expect(event).toEqual(asParsed(bytes.toString('utf8')));
            } else {
              expect(sync).toMatchObject({ error: 'WebhookVerificationError' });
              const { reason } = sync as { reason: string };
              expect(FAILURES_OF_THE_BODY).toContain(reason);
              expect(FAILURES_BEFORE_PARSING).not.toContain(reason);
              // A body that is an event is refused only for its age, and only when an age was asked for.
              const text = new TextDecoder('utf-8', { fatal: true });
              let json: unknown;
              try {
                json = JSON.parse(text.decode(bytes));
              } catch {
                json = undefined;
              }
              if (isEvent(json)) {
                expect(reason).toBe('stale');
                expect((options as { maxAgeSeconds?: unknown }).maxAgeSeconds).toBeDefined();
              } else expect(reason).toBe('malformed_payload');
            }
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );

  it(
    'accept every signed, well-formed, fresh event of every kind, in every payload form',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          events(fc.integer({ min: -86400, max: 86400 })),
          payloadForms,
          fc.string({ minLength: 1, maxLength: 40 }),
          async (body, form, secret) => {
            const payload = inForm(body, form) as string;
            const signature = signWebhook(payload, secret);
            const options = { maxAgeSeconds: 86400, now: NOW };
            const expected = asParsed(body);
            expect(parseWebhook(payload, signature, secret, options)).toEqual(expected);
            expect(await parseWebhookAsync(payload, signature, secret, options)).toEqual(expected);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );
});

describe('signWebhook under fuzz', () => {
  it(
    'gives a header value that verifies, or an InvalidArgumentError naming the fix',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          payloads,
          secrets,
          fc.oneof(
            {
              weight: 3,
              arbitrary: fc.record({ prefix: fc.option(fc.boolean(), { nil: undefined }) }, { requiredKeys: [] }),
            },
            fc.constant(undefined),
            anything,
          ),
          async (payload, secret, options) => {
            const signed = outcomeOf(
              () => signWebhook(payload as never, secret as never, options as never),
              'signWebhook',
            );
            const bytes = rawBytes(payload);
            const prefix = (options as { prefix?: unknown } | undefined)?.prefix;
            const optionsOk =
              options === undefined ||
              (typeof options === 'object' &&
                options !== null &&
                (prefix === undefined || typeof prefix === 'boolean'));
            if (bytes === undefined || typeof secret !== 'string' || secret === '' || !optionsOk) {
              expectArgumentError(signed);
              return;
            }
            const hex = hmacHex(secret, bytes);
            expect(signed).toEqual({ value: prefix === false ? hex : `sha256=${hex}` });
            expect(verifyWebhook(payload as never, (signed as { value: string }).value, secret)).toBe(true);
            expect(await verifyWebhookAsync(payload as never, (signed as { value: string }).value, secret)).toBe(true);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT_MS,
  );
});
