/** A webhook body as received: the exact raw bytes, or their text. */
export type WebhookPayload = string | Uint8Array | ArrayBuffer;
/** One signing secret, or several during a rotation. */
export type WebhookSecret = string | readonly string[];

const SIGNATURE = /^(?:sha256=)?([0-9a-f]{64})$/i;
const encoder = /* @__PURE__ */ new TextEncoder();

/** The 32 digest bytes of a `X-Service-Signature` value (bare hex or `sha256=<hex>`), if well-formed. */
export function signatureBytes(signature: unknown): Uint8Array<ArrayBuffer> | undefined {
  if (typeof signature !== 'string') return undefined;
  const hex = SIGNATURE.exec(signature.trim())?.[1];
  if (hex === undefined) return undefined;
  const bytes = new Uint8Array(32);
  for (let i = 0; i < 32; i++) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** The payload as bytes or text; anything else is a programming error. */
export function payloadInput(payload: unknown, caller: string): string | Uint8Array {
  if (typeof payload === 'string' || payload instanceof Uint8Array) return payload;
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  const got = payload === null ? 'null' : typeof payload;
  throw new TypeError(
    `${caller} needs the raw request body (string, Buffer, Uint8Array or ArrayBuffer), got ${got}. ` +
      'The signature covers the exact bytes sent: pass the unparsed body (express.raw(), await request.text()), not JSON.parse() output.',
  );
}

/** The payload as bytes (Web Crypto takes no strings). */
export function payloadBytes(payload: string | Uint8Array): Uint8Array {
  return typeof payload === 'string' ? encoder.encode(payload) : payload;
}

/** The secrets to try; an empty secret is a programming error. */
export function secretList(secret: unknown, caller: string): readonly string[] {
  const list = Array.isArray(secret) ? secret : [secret];
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s !== '')) {
    throw new TypeError(
      `${caller} needs the endpoint's signing secret: a non-empty string, or a non-empty array of them during a rotation.`,
    );
  }
  return list as readonly string[];
}
