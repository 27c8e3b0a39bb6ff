import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, signWebhook, verifyWebhook, verifyWebhookAsync } from '../../src/webhooks/index.js';

const SECRET = 'whsec_test_secret';
// Fixed vectors, computed outside this code with `printf %s BODY | openssl dgst -sha256 -hmac SECRET`.
const vectors = [
  {
    body: '{"event":"message.delivered","timestamp":"2026-11-21T10:00:00Z","data":{"message_id":"msg_1","to":"4915112345678","status":"delivered","delivered_at":"2026-11-21T10:00:00Z"}}',
    hex: 'b57c57e5de8c620727975c70e1950b7b1567e1d19a2f0d5c7dbad92382b894dd',
  },
  {
    body: '{"event":"message.received","timestamp":"2026-11-21T10:00:00Z","data":{"text":"Grüße 👋🏽 — ok"}}',
    hex: 'e3c8250870e1967d4be0630e49b50ff374459bf36a4f8f1690c2b4e02fd3d222',
  },
  { body: '', hex: 'c6c175a074d482e2b94a0f8c5619f3abd861a511ec3ea7603b906811fd3d9d30' },
];

const both = [
  [
    'verifyWebhook',
    (p: Parameters<typeof verifyWebhook>[0], s: unknown, k: string | string[]) =>
      Promise.resolve(verifyWebhook(p, s, k)),
  ],
  ['verifyWebhookAsync', verifyWebhookAsync],
] as const;

describe.each(both)('%s', (_, verify) => {
  it('accepts the bare hex digest and the sha256= form, in any case, trimmed', async () => {
    for (const { body, hex } of vectors) {
      for (const signature of [
        hex,
        `sha256=${hex}`,
        `SHA256=${hex.toUpperCase()}`,
        `  sha256=${hex}\n`,
        hex.toUpperCase(),
      ]) {
        expect(await verify(body, signature, SECRET)).toBe(true);
      }
    }
  });

  it('accepts every payload form of the same bytes, non-ASCII included', async () => {
    const { body, hex } = vectors[1]!;
    const bytes = new TextEncoder().encode(body);
    for (const payload of [
      body,
      Buffer.from(body),
      bytes,
      bytes.buffer.slice(0),
      new Uint8Array([0, ...bytes]).subarray(1),
    ]) {
      expect(await verify(payload, hex, SECRET)).toBe(true);
    }
  });

  it('rejects a different body, secret or signature', async () => {
    const { body, hex } = vectors[0]!;
    expect(await verify(`${body} `, hex, SECRET)).toBe(false);
    expect(await verify(body, hex, 'other')).toBe(false);
    expect(
      await verify(
        body,
        hex.replace(/.$/, (c) => (c === '0' ? '1' : '0')),
        SECRET,
      ),
    ).toBe(false);
    // the same text re-serialised is different bytes
    expect(await verify(JSON.stringify(JSON.parse(body), null, 1), hex, SECRET)).toBe(false);
  });

  it.each([
    undefined,
    null,
    '',
    'sha256=',
    'sha1=abc',
    'abc',
    'z'.repeat(64),
    'sha256= ' + 'a'.repeat(64),
    'a'.repeat(63),
    'a'.repeat(65),
    'sha256=sha256=' + 'a'.repeat(64),
    ['sha256=' + 'a'.repeat(64)],
    42,
    {},
  ])('returns false for the malformed signature %j', async (signature) => {
    expect(await verify(vectors[0]!.body, signature, SECRET)).toBe(false);
  });

  it('accepts any of several secrets during a rotation', async () => {
    const { body, hex } = vectors[0]!;
    expect(await verify(body, hex, ['new_secret', SECRET])).toBe(true);
    expect(await verify(body, hex, [SECRET, 'new_secret'])).toBe(true);
    expect(await verify(body, hex, ['a', 'b'])).toBe(false);
  });

  it('throws an InvalidArgumentError naming the fix for a parsed body or an empty secret', async () => {
    const parsed = JSON.parse(vectors[0]!.body);
    await expect(async () => verify(parsed, vectors[0]!.hex, SECRET)).rejects.toThrow(
      /needs the raw request body \(string, Buffer, Uint8Array or ArrayBuffer\), got object\. The signature covers the exact bytes sent/,
    );
    await expect(async () => verify(vectors[0]!.body, vectors[0]!.hex, '')).rejects.toThrow(InvalidArgumentError);
    await expect(async () => verify(vectors[0]!.body, vectors[0]!.hex, [])).rejects.toThrow(
      "needs the endpoint's signing secret",
    );
    // A sparse array's hole is no secret either (every() would skip it).
    // eslint-disable-next-line no-sparse-arrays -- the hole is the input under test
    await expect(async () => verify(vectors[0]!.body, vectors[0]!.hex, [, SECRET] as never)).rejects.toThrow(
      "needs the endpoint's signing secret",
    );
    await expect(async () => verify(vectors[0]!.body, undefined, '')).rejects.toThrow(InvalidArgumentError);
  });
});

describe('properties', () => {
  const secrets = fc.string({ minLength: 1, maxLength: 40 });
  const bodies = fc.oneof(fc.string({ unit: 'binary' }), fc.uint8Array({ maxLength: 300 }));

  it('never throws on an arbitrary signature (strings, bytes, anything)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.anything(), fc.string(), async (signature, body) => {
        expect(verifyWebhook(body, signature, SECRET)).toBe(false);
        expect(await verifyWebhookAsync(body, signature, SECRET)).toBe(false);
      }),
    );
  });

  it('sign then verify always accepts, in both forms, sync and async', async () => {
    await fc.assert(
      fc.asyncProperty(bodies, secrets, fc.boolean(), async (body, secret, prefix) => {
        const signature = signWebhook(body, secret, { prefix });
        expect(signature.startsWith('sha256=')).toBe(prefix);
        expect(verifyWebhook(body, signature, secret)).toBe(true);
        expect(await verifyWebhookAsync(body, signature, secret)).toBe(true);
      }),
    );
  });

  it('trims any amount of surrounding whitespace, for the bare and sha256= forms alike', async () => {
    // The characters String.prototype.trim removes: what "surrounding space" means for a header value.
    const whitespace = fc.string({
      unit: fc.constantFrom(' ', '\t', '\n', '\r', '\v', '\f', '\u00a0', '\u2028', '\u3000', '\ufeff'),
      maxLength: 80,
    });
    const { body, hex } = vectors[0]!;
    await fc.assert(
      fc.asyncProperty(
        whitespace,
        whitespace,
        fc.constantFrom(hex, `sha256=${hex}`, `SHA256=${hex.toUpperCase()}`),
        async (before, after, signature) => {
          expect(verifyWebhook(body, before + signature + after, SECRET)).toBe(true);
          expect(await verifyWebhookAsync(body, before + signature + after, SECRET)).toBe(true);
        },
      ),
      // 7 spaces make a bare digest as long as the sha256= form: the length must not decide the trimming.
      { examples: [[' '.repeat(3), ' '.repeat(4), hex]] },
    );
  });

  it('a flipped byte of the body or a flipped hex digit of the signature is always rejected', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 200 }),
        secrets,
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        fc.nat(63),
        async (body, secret, at, mask, digit) => {
          const signature = signWebhook(body, secret, { prefix: false });
          const flipped = Uint8Array.from(body);
          flipped[at % body.length] = flipped[at % body.length]! ^ mask;
          expect(verifyWebhook(flipped, signature, secret)).toBe(false);
          expect(await verifyWebhookAsync(flipped, signature, secret)).toBe(false);
          const hex = signature.split('');
          hex[digit] = ((Number.parseInt(hex[digit]!, 16) + 1) % 16).toString(16);
          expect(verifyWebhook(body, hex.join(''), secret)).toBe(false);
          expect(await verifyWebhookAsync(body, hex.join(''), secret)).toBe(false);
        },
      ),
    );
  });
});

describe('signWebhook', () => {
  it('gives the header value the service sends', () => {
    const { body, hex } = vectors[1]!;
    expect(signWebhook(body, SECRET)).toBe(`sha256=${hex}`);
    expect(signWebhook(body, SECRET, { prefix: false })).toBe(hex);
    expect(() => signWebhook(body, [SECRET] as never)).toThrow('signWebhook signs with one secret: pass a string.');
  });
});
