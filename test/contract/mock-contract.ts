import * as z from 'zod/mini';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { endpointsOf, errorCodesOf, type Endpoint } from '../../src/contract/endpoints.js';
import { errorFromResponse } from '../../src/core/errors/from-response.js';
import { ApiError, errorClassByCode } from '../../src/core/errors/classes.js';
import {
  BODY_LIMITS,
  createMockServer,
  openApiDocument,
  SCOPES,
  startMockHttpServer,
  type MockService,
} from '../../src/mock/index.js';
import { ListMetaSchema } from '../../src/schemas/common.js';
import { statusOfCode, type ErrorCode, type SpecErrorCode } from '../../src/contract/error-codes.js';
import { variant1Protocol } from '../../src/variant1/protocol.js';
import { variant2Protocol } from '../../src/variant2/protocol.js';
import { closedDocument, OpenApiContract, type WireResponse } from '../helpers/openapi-contract.js';
import { VARIANT1_FIXTURES, VARIANT2_FIXTURES, type CaseRequest, type EndpointFixture } from './fixtures.js';

const KEYS = {
  revoked: 'sk_test_contract_revoked',
  tight: 'sk_test_contract_tight',
  single: 'sk_test_contract_single',
  onlyScope: (scope: string) => `sk_test_contract_only_${scope.replace(':', '_')}`,
};

/** A mock with a key for every way a request can be refused. */
function options(variant: 1 | 2) {
  return {
    variant,
    keys: [
      ...SCOPES.map((scope) => ({ key: KEYS.onlyScope(scope), scopes: [scope] })),
      { key: KEYS.revoked, revoked: true },
      { key: KEYS.tight, plan: 'tight' },
      { key: KEYS.single, plan: 'single' },
    ],
    plans: {
      tight: { rateLimit: 1000, maxContacts: 0, maxMessages: 0, maxWebhookEndpoints: 0 },
      single: { rateLimit: 1 },
    },
    seed: {
      contacts: [
        { name: 'Ada Lovelace', phone: '4915112345678', email: 'ada@example.com', tags: ['vip'] },
        { name: 'Bob', phone: '4915100000002' },
      ],
    },
  };
}

/** How a transport reaches a mock. */
interface Target {
  mock: MockService;
  url: string;
  close(): Promise<void> | void;
}

const TRANSPORTS = {
  msw: async (variant: 1 | 2): Promise<Target> => {
    const mock = createMockServer({ ...options(variant), baseUrl: `https://contract-v${variant}.bizmsg.test/api/v1` });
    mock.listen();
    return { mock, url: mock.baseUrl, close: () => mock.close() };
  },
  http: async (variant: 1 | 2): Promise<Target> => {
    const server = await startMockHttpServer(options(variant));
    return { mock: server.mock, url: server.baseUrl, close: () => server.close() };
  },
};

/** What a request sends besides its fixture. */
interface Send {
  key?: string | null;
  rawBody?: string;
}

/**
 * Every endpoint of both variants, each answer and each error code it documents, against the mock
 * reached over `transport`: in process through msw (contract/mock.test.ts) or over HTTP
 * (contract/mock.integration.test.ts).
 */
export function describeMockContract(transport: keyof typeof TRANSPORTS): void {
  describe.each([1, 2] as const)(
    `Variant %i over ${transport}: every answer of the mock fits the OpenAPI document, declares every field, and fits the client`,
    (variant) => {
      // Closed: every field of every answer, error details included, must be declared.
      const contract = new OpenApiContract(closedDocument(openApiDocument(variant)));
      const protocol = variant === 1 ? variant1Protocol : variant2Protocol;
      const fixtures: Record<string, EndpointFixture> = variant === 1 ? VARIANT1_FIXTURES : VARIANT2_FIXTURES;
      let target: Target;
      beforeAll(async () => {
        target = await TRANSPORTS[transport](variant);
      });
      afterAll(() => target.close());
      beforeEach(() => target.mock.reset());

      async function send(
        request: CaseRequest,
        { key = target.mock.apiKey, rawBody }: Send = {},
      ): Promise<WireResponse & { text: string }> {
        const auth: Record<string, string> =
          key === null ? {} : variant === 1 ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
        const body = rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
        const response = await fetch(`${target.url}${request.target}`, {
          method: request.method,
          headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body,
        });
        const text = await response.text();
        return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
      }

      /** Checks one answer against the document, and reads it the way the client does. */
      function expectConforming(endpoint: Endpoint, response: WireResponse & { text: string }, code?: ErrorCode): void {
        expect(contract.responseProblems(endpoint.method, endpoint.path, response), response.text).toEqual([]);
        if (code === undefined) {
          expect(response.status).toBe(endpoint.status);
          const unwrapped = protocol.unwrap(response.body);
          expect(unwrapped, 'the client finds its envelope').toBeDefined();
          const payload = endpoint.list ? z.array(endpoint.payload) : endpoint.payload;
          const parsed = payload.safeParse(unwrapped!.data);
          expect(parsed.error?.issues ?? [], response.text).toEqual([]);
          if (endpoint.list) expect(ListMetaSchema.safeParse(unwrapped!.meta).success).toBe(true);
          return;
        }
        const request = { method: endpoint.method, path: endpoint.path, mayHaveBeenProcessed: false };
        const error = errorFromResponse(
          { status: response.status, statusText: '', headers: response.headers },
          response.text,
          request,
          undefined,
          undefined,
        );
        expect([error.status, error.code], response.text).toEqual([statusOfCode(code, variant), code]);
        expect(error).toBeInstanceOf(
          Object.hasOwn(errorClassByCode, code) ? errorClassByCode[code as SpecErrorCode] : ApiError,
        );
      }

      /** A request that gets `code` from `endpoint`. */
      async function provoke(endpoint: Endpoint, fixture: EndpointFixture, code: ErrorCode) {
        const otherScope = SCOPES.find((scope) => scope !== endpoint.scope)!;
        switch (code) {
          case 'AUTHENTICATION_ERROR':
            expectConforming(endpoint, await send(fixture.ok, { key: 'sk_test_unknown' }), code);
            return send(fixture.ok, { key: null });
          case 'KEY_REVOKED':
            return send(fixture.ok, { key: KEYS.revoked });
          case 'INSUFFICIENT_PERMISSIONS':
            return send(fixture.ok, { key: KEYS.onlyScope(otherScope) });
          case 'PLAN_LIMIT_EXCEEDED':
            return send(fixture.ok, { key: KEYS.tight });
          case 'RATE_LIMIT_EXCEEDED':
            await send(fixture.ok, { key: KEYS.single });
            return send(fixture.ok, { key: KEYS.single });
          case 'VALIDATION_ERROR':
            return endpoint.body === undefined
              ? send({ ...fixture.ok, target: `${endpoint.path.replace('{id}', '1')}?page=0` })
              : send(fixture.ok, { rawBody: '[]' });
          case 'PAYLOAD_TOO_LARGE':
            return send(fixture.ok, { rawBody: JSON.stringify({ padding: 'x'.repeat(BODY_LIMITS.maxBytes) }) });
          case 'RESOURCE_NOT_FOUND':
            return send(fixture.missing!);
          case 'INVALID_PHONE':
            return send(fixture.badPhone!);
          case 'TEMPLATE_NOT_FOUND':
            return send(fixture.badTemplate!);
          case 'MESSAGING_ERROR':
            return send(fixture.upstreamFailure!);
          case 'INTERNAL_ERROR':
            target.mock.inject({ route: `${endpoint.method} ${endpoint.path}`, status: 500 });
            return send(fixture.ok);
        }
      }

      describe.each(endpointsOf(variant).map((endpoint) => [`${endpoint.method} ${endpoint.path}`, endpoint] as const))(
        '%s',
        (_, endpoint) => {
          const fixture = fixtures[endpoint.operationId]!;
          beforeEach(() => fixture.prepare?.(target.mock));

          it(`succeeds with ${endpoint.status}`, async () => {
            expectConforming(endpoint, await send(fixture.ok));
          });

          it.each(errorCodesOf(endpoint))('answers %s as documented', async (code) => {
            const response = await provoke(endpoint, fixture, code);
            expect(response.status, response.text).toBe(statusOfCode(code, variant));
            expectConforming(endpoint, response, code);
          });

          it('answers an injected 429 (no rate-limit headers, as from a gateway) as documented', async () => {
            target.mock.inject({ route: `${endpoint.method} ${endpoint.path}`, status: 429 });
            expectConforming(endpoint, await send(fixture.ok), 'RATE_LIMIT_EXCEEDED');
          });

          if (errorCodesOf(endpoint).includes('MESSAGING_ERROR')) {
            it('answers an injected 502 as documented', async () => {
              target.mock.inject({ route: `${endpoint.method} ${endpoint.path}`, status: 502 });
              expectConforming(endpoint, await send(fixture.ok), 'MESSAGING_ERROR');
            });
          }
        },
      );

      it('rejects a method a path lacks with 404 RESOURCE_NOT_FOUND and Allow, which the client reads', async () => {
        const response = await send({ method: 'PATCH', target: '/contacts/1', body: {} });
        const endpoint = endpointsOf(variant).find((e) => e.path === '/contacts/{id}' && e.method === 'GET')!;
        // Not an operation of the document; its answer still has the 404 of the path's operations.
        expect(contract.responseProblems('GET', '/contacts/{id}', response)).toEqual([]);
        expectConforming(endpoint, response, 'RESOURCE_NOT_FOUND');
        expect(response.headers.get('allow')).toBe(variant === 1 ? 'GET, PUT' : 'GET, PUT, DELETE');
      });
    },
  );
}
