// What one exchange with the real service shows against the contract: the request against what the
// endpoint takes, the answer against what bizmsg expects, its status and error code against the
// spec's lists, its rate-limit headers. Nothing here changes the traffic.
import * as z from 'zod/mini';
import { endpointsOf, errorCodesOf, type Endpoint } from '../../contract/endpoints.js';
import { ERROR_CODES, statusOfCode, type ErrorCode } from '../../contract/error-codes.js';
import { compareShape, jsonType } from '../../contract/drift.js';
import { shapeOfSchema } from '../../contract/shape.js';
import type { Variant } from '../../contract/variant.js';
import { ListMetaSchema } from '../../schemas/common.js';
import { compilePath } from '../wire/path-pattern.js';
import type { Exchange } from './exchange.js';
import type { Difference } from './findings.js';

/** The headers every answer carries once the key is checked (spec section 8), and what a 429 adds. */
const RATE_LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'] as const;
/** How the findings name the headers. */
const HEADER_NAMES: Readonly<Record<string, string>> = {
  'x-ratelimit-limit': 'X-RateLimit-Limit',
  'x-ratelimit-remaining': 'X-RateLimit-Remaining',
  'x-ratelimit-reset': 'X-RateLimit-Reset',
  'retry-after': 'Retry-After',
};
/** An error code as a finding may quote it: the service's vocabulary, never a value of the user's. */
const CODE_SHAPE = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A body as the checks read it: its JSON value, or why there is none. */
type Body = { readonly json: unknown } | { readonly none: 'empty' | 'text' | 'uncopied' };

/** The checks of one variant's contract. */
export class ContractChecks {
  readonly #variant: Variant;
  readonly #endpoints: ReadonlyArray<{ endpoint: Endpoint; pattern: RegExp; envelope: z.ZodMiniType }>;

  constructor(variant: Variant) {
    this.#variant = variant;
    this.#endpoints = endpointsOf(variant).map((endpoint) => ({
      endpoint,
      pattern: compilePath(endpoint.path).pattern,
      envelope: successEnvelope(variant, endpoint),
    }));
  }

  /** The endpoint a request asks for, as `GET /contacts/{id}`; undefined outside the contract. */
  operationOf(method: string, path: string): string | undefined {
    const found = this.#find(method, path);
    return found === undefined ? undefined : `${found.endpoint.method} ${found.endpoint.path}`;
  }

  /** What `exchange` shows against the contract; nothing for a request outside it (it is passed on unchecked). */
  check(exchange: Exchange): Difference[] {
    const found = this.#find(exchange.method, exchange.path);
    if (found === undefined) return [];
    const { endpoint, envelope } = found;
    const operation = `${endpoint.method} ${endpoint.path}`;
    const differences: Difference[] = [];
    const add = (direction: Difference['direction'], kind: Difference['kind'], rest: Partial<Difference> = {}) =>
      differences.push({ operation, direction, kind, ...rest });
    if (endpoint.body !== undefined) {
      const body = bodyOf(exchange.requestBody);
      if ('json' in body) shapeOf(endpoint.body, body.json, (kind, rest) => add('request', kind, rest));
    }
    const { status } = exchange;
    const listed = this.#statuses(endpoint);
    if (!listed.includes(status)) add('response', 'status', { expected: listed.join(', '), received: String(status) });
    const answer = bodyOf(exchange.responseBody);
    if (successesOf(endpoint).includes(status)) {
      if ('json' in answer) shapeOf(envelope, answer.json, (kind, rest) => add('response', kind, rest));
      else if (answer.none !== 'uncopied')
        add('response', 'mismatched', {
          path: '(body)',
          expected: 'object',
          received: answer.none === 'empty' ? 'nothing' : 'text',
        });
    } else if (status >= 400 && !('none' in answer && answer.none === 'uncopied')) {
      for (const rest of this.#errorDifferences(endpoint, status, 'json' in answer ? answer.json : undefined))
        add('response', 'error-code', rest);
    }
    for (const rest of headerDifferences(exchange.status, exchange.responseHeaders)) add('response', 'header', rest);
    return differences;
  }

  #find(method: string, path: string) {
    return this.#endpoints.find(({ endpoint, pattern }) => endpoint.method === method && pattern.test(path));
  }

  /** The statuses the endpoint answers with: its successes, and those of its error codes in this variant. */
  #statuses(endpoint: Endpoint): number[] {
    const statuses = new Set([
      ...successesOf(endpoint),
      ...errorCodesOf(endpoint).map((code) => statusOfCode(code, this.#variant)),
    ]);
    return [...statuses].sort((a, b) => a - b);
  }

  /** How an error answer differs from the variant's envelope and the endpoint's codes. */
  #errorDifferences(endpoint: Endpoint, status: number, body: unknown): Array<Partial<Difference>> {
    const shown = this.#variant === 1 ? 'Variant 1 envelope { success: false, error }' : 'Variant 2 envelope { error }';
    const record = jsonType(body) === 'object' ? (body as Record<string, unknown>) : undefined;
    const error =
      record !== undefined && jsonType(record.error) === 'object'
        ? (record.error as Record<string, unknown>)
        : undefined;
    if (error === undefined)
      return [{ path: 'error', expected: shown, received: body === undefined ? 'not JSON' : jsonType(body) }];
    const differences: Array<Partial<Difference>> = [];
    const success = record!.success;
    if (this.#variant === 1 ? success !== false : success !== undefined)
      differences.push({
        path: 'success',
        expected: shown,
        received: success === undefined ? 'missing' : jsonType(success),
      });
    const code = error.code;
    if (typeof code !== 'string')
      return [...differences, { path: 'error.code', expected: 'string', received: jsonType(code) }];
    const named = CODE_SHAPE.test(code) ? code : 'a string that is no code';
    const codes = errorCodesOf(endpoint);
    if (!Object.hasOwn(ERROR_CODES, code))
      differences.push({ path: 'error.code', expected: 'a code of the spec', received: named });
    else if (!codes.includes(code as ErrorCode))
      differences.push({ path: 'error.code', expected: codes.join(', '), received: code });
    else if (statusOfCode(code as ErrorCode, this.#variant) !== status)
      differences.push({
        path: 'error.code',
        expected: `${code} with ${statusOfCode(code as ErrorCode, this.#variant)}`,
        received: `${code} with ${status}`,
      });
    return differences;
  }
}

/** The body the clients parse on a success: the payload in the variant's envelope, a list with its `meta`. */
function successEnvelope(variant: Variant, endpoint: Endpoint): z.ZodMiniType {
  const data = endpoint.list === true ? z.array(endpoint.payload) : endpoint.payload;
  const meta = endpoint.list === true ? ListMetaSchema : z.optional(ListMetaSchema);
  return variant === 1 ? z.object({ success: z.literal(true), data, meta }) : z.object({ data, meta });
}

/**
 * How a body differs from its schema, by the drift check the clients and receivers use (contract/drift.ts):
 * a request against what the endpoint takes (zod-required fields), an answer against what bizmsg
 * expects of each record (the fields the spec shows, and the guesses marked `expected()`).
 */
function shapeOf(
  schema: z.ZodMiniType,
  value: unknown,
  add: (kind: Difference['kind'], rest: Partial<Difference>) => void,
): void {
  const drift = compareShape(shapeOfSchema(schema), value);
  for (const path of drift.missing) add('missing', { path });
  for (const path of drift.unexpected) add('unexpected', { path });
  for (const { path, expected, received } of drift.mismatched) add('mismatched', { path, expected, received });
}

function headerDifferences(status: number, headers: Readonly<Record<string, string>>): Array<Partial<Difference>> {
  // Our contract: the rate-limit headers come once the key is checked, so not on a 401.
  const wanted: string[] = status === 401 ? [] : [...RATE_LIMIT_HEADERS];
  if (status === 429) wanted.push('retry-after');
  const differences: Array<Partial<Difference>> = [];
  for (const name of wanted) {
    const value = headers[name];
    if (value === undefined) differences.push({ path: HEADER_NAMES[name], expected: 'integer', received: 'missing' });
    else if (!/^\s*\d+\s*$/.test(value))
      differences.push({ path: HEADER_NAMES[name], expected: 'integer', received: 'not an integer' });
  }
  return differences;
}

function bodyOf(bytes: Uint8Array | undefined): Body {
  if (bytes === undefined) return { none: 'uncopied' };
  if (bytes.byteLength === 0) return { none: 'empty' };
  try {
    return { json: JSON.parse(decoder.decode(bytes)) as unknown };
  } catch {
    return { none: 'text' };
  }
}

/**
 * The statuses of a success of `endpoint`. The spec's statuses are "200 success, 201 created", and
 * it gives a status to Variant 2's `POST /contacts` alone (201): any other POST may create, and
 * answer either.
 */
function successesOf(endpoint: Endpoint): readonly number[] {
  return endpoint.method === 'POST' && endpoint.status === 200 ? [200, 201] : [endpoint.status];
}
