// What the webhook functions take: the raw payload, the signature header and the secret(s).
import { InvalidArgumentError } from '../../shared/errors.js';

/** A webhook body as received: the exact raw bytes, or their text. */
export type WebhookPayload = string | Uint8Array | ArrayBuffer;
/** One signing secret, or several during a rotation. */
export type WebhookSecret = string | readonly string[];

const PREFIX = 'sha256=';
const DIGEST_HEX_LENGTH = 64;

/** The 32 digest bytes of a `X-Service-Signature` value (bare hex or `sha256=<hex>`), if well-formed. */
export function signatureBytes(signature: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof signature !== 'string') return undefined;
  const value = signature.trim();
  let start = 0;
  if (value.length === PREFIX.length + DIGEST_HEX_LENGTH) {
    if (value.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return undefined;
    start = PREFIX.length;
  } else if (value.length !== DIGEST_HEX_LENGTH) {
    return undefined;
  }
  const bytes = new Uint8Array(DIGEST_HEX_LENGTH / 2);
  for (let i = 0; i < bytes.length; i++) {
    const high = hexValue(value.charCodeAt(start + 2 * i));
    const low = hexValue(value.charCodeAt(start + 2 * i + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}

/** The value of one hex digit's char code, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48; // 0-9
  const lower = code | 0x20; // A-F -> a-f
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/** The payload as bytes or text; anything else is a programming error. */
export function payloadInput(payload: unknown, caller: string): string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  const got = payload === null ? 'null' : typeof payload;
  throw new InvalidArgumentError(
    `${caller} needs the raw request body (string, Buffer, Uint8Array or ArrayBuffer), got ${got}. ` +
      'The signature covers the exact bytes sent: pass the unparsed body (express.raw(), await request.text()), not JSON.parse() output.',
  );
}

/** The payload as bytes Web Crypto takes: no strings, and no views on a SharedArrayBuffer (those are copied). */
export function payloadBytes(payload: string | Uint8Array): Uint8Array<ArrayBuffer> {
  if (typeof payload === 'string') return encoder.encode(payload);
  // `instanceof ArrayBuffer`, not `SharedArrayBuffer`: browsers define the latter only on
  // cross-origin isolated pages, so naming it would throw everywhere else.
  return payload.buffer instanceof ArrayBuffer ? (payload as Uint8Array<ArrayBuffer>) : new Uint8Array(payload);
}

/** The secrets to try; an empty secret is a programming error. */
export function secretList(secret: unknown, caller: string): readonly string[] {
  if (typeof secret === 'string' && secret !== '') return [secret];
  // Array.from, not every(): every() skips the holes of a sparse array, which are no secrets either.
  if (Array.isArray(secret) && secret.length > 0 && Array.from(secret).every((s) => typeof s === 'string' && s !== ''))
    return secret as string[];
  throw new InvalidArgumentError(
    `${caller} needs the endpoint's signing secret: a non-empty string, or a non-empty array of them during a rotation.`,
  );
}
