import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { MockService } from '../../src/mock/index.js';

/** What a raw call returns. */
export interface RawResponse {
  status: number;
  headers: Headers;
  body: any;
}

/** Options of a raw call. */
export interface RawCall {
  body?: unknown;
  /** A body sent as is (malformed JSON, say). */
  rawBody?: string;
  /** The key to send; null sends none. Default: the mock's seeded key. */
  key?: string | null;
  headers?: Record<string, string>;
}

/** Calls the mock with plain fetch, the way any HTTP client would, in the variant's auth scheme. */
export function rawApi(mock: Pick<MockService, 'baseUrl' | 'apiKey' | 'variant'>) {
  return async (method: string, path: string, call: RawCall = {}): Promise<RawResponse> => {
    const key = call.key === undefined ? mock.apiKey : call.key;
    const auth: Record<string, string> =
      key === null ? {} : mock.variant === 1 ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
    const hasBody = call.body !== undefined || call.rawBody !== undefined;
    const response = await fetch(`${mock.baseUrl}${path}`, {
      method,
      headers: { ...auth, ...(hasBody ? { 'content-type': 'application/json' } : {}), ...call.headers },
      body: call.rawBody ?? (call.body === undefined ? undefined : JSON.stringify(call.body)),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
  };
}

/** The variant's error envelope around `error` (any message unless given). */
export function errorEnvelope(variant: 1 | 2, error: { code: string; message?: string; details?: unknown }) {
  const inner = { code: error.code, message: error.message ?? expect.any(String), details: error.details ?? {} };
  return variant === 1 ? { success: false, error: inner } : { error: inner };
}

/** Listens with these mocks for the whole file and resets them before each test. */
export function useMocks(...mocks: Array<{ listen(): void; close(): void; reset(): void }>): void {
  beforeAll(() => mocks.forEach((mock) => mock.listen()));
  afterAll(() => mocks.forEach((mock) => mock.close()));
  beforeEach(() => mocks.forEach((mock) => mock.reset()));
}
