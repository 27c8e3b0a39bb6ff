// The JSON body of a request, read within the size and depth limits.
import type { ZodMiniType } from 'zod/mini';
import { payloadTooLarge } from '../wire/http-error.js';
import { fieldNestedTooDeep } from './json-depth.js';
import { BODY_LIMITS } from '../../contract/limits.js';
import type { MockRequest } from '../wire/request.js';
import { parseWith, validationError } from './validate.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** 413 PAYLOAD_TOO_LARGE when the request declares a body over the limit, before any of it is read. */
export function checkDeclaredLength(request: MockRequest): void {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > BODY_LIMITS.maxBytes) throw payloadTooLarge();
}

/**
 * The JSON object a request carries, within the size and depth limits: too large is a 413,
 * anything else wrong (not UTF-8, too deep, malformed, not an object) a VALIDATION_ERROR with
 * the variant's status, never a 500.
 */
async function readJsonBody(request: MockRequest): Promise<Record<string, unknown>> {
  checkDeclaredLength(request);
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > BODY_LIMITS.maxBytes) throw payloadTooLarge();
  const text = decode(bytes);
  if (text.trim() === '') throw validationError({ body: ['is required'] });
  const tooDeep = fieldNestedTooDeep(text, BODY_LIMITS.maxDepth);
  if (tooDeep !== undefined)
    throw validationError({ [tooDeep]: [`is nested deeper than ${BODY_LIMITS.maxDepth} levels`] });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw validationError({ body: ['is not valid JSON'] });
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw validationError({ body: ['must be a JSON object'] });
  }
  return body as Record<string, unknown>;
}

/** The JSON body of a request parsed by `schema`: the two steps every write route takes. */
export async function parseBody<T>(request: MockRequest, schema: ZodMiniType<T>): Promise<T> {
  return parseWith(schema, await readJsonBody(request));
}

function decode(bytes: ArrayBuffer): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw validationError({ body: ['is not valid UTF-8'] });
  }
}
