// Requests generated from the documents' own request schemas (json-schema-faker), sent to the mock
// over HTTP: every answer must fit the document, closed (no undeclared field), and a request that
// fits the document is never refused as malformed except for the account data no schema can know.
import { createGeneratorSync, type JsonSchema } from 'json-schema-faker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockHttpServer, type MockHttpServer } from '../../src/mock/index.js';
import { AUTOMATIONS, MESSAGING_ACCOUNTS, SEGMENTS } from '../../src/mock/options.js';
import { openApiDocument } from '../../src/openapi/document.js';
import { closedDocument, OpenApiContract } from '../helpers/openapi-contract.js';

const LONG = process.env.BIZMSG_SOAK === 'long';
/** Requests per operation: ~500 in all by default (9 + 13 operations), 20 times that in a long soak. */
const PER_OPERATION = LONG ? 480 : 24;
const PHONE = '4915112345678';
/** Refused at once on loopback: the deliveries of a fuzzed endpoint never leave the machine. */
const LOOPBACK_HOOK = 'http://127.0.0.1:9/hooks';

type Variant = 1 | 2;
/** A schema object of the document (json-schema-faker also takes `true` and `false`). */
type SchemaObject = Exclude<JsonSchema, boolean>;
interface Operation {
  method: string;
  path: string;
  parameters: Array<{ name: string; in: string; required?: boolean; schema: SchemaObject }>;
  body?: SchemaObject;
}

/** Every operation of a document, with its parameters (the path's and its own) and its body's schema. */
function operationsOf(document: any): Operation[] {
  return Object.entries<any>(document.paths).flatMap(([path, item]) =>
    Object.entries<any>(item)
      .filter(([method]) => method !== 'parameters')
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(operation.parameters ?? [])],
        body: operation.requestBody?.content['application/json'].schema,
      })),
  );
}

/** A small seeded PRNG (mulberry32), for the choices json-schema-faker does not make. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Where a body names the account's own data (a messaging account, segment, template, automation)
 * no schema can list: half the time it gets a value that exists, so that requests also succeed.
 * A webhook URL is always loopback: the mock delivers to it.
 */
function withAccountData(body: any, chance: () => number): unknown {
  if (typeof body !== 'object' || body === null) return body;
  if (typeof body.url === 'string') body.url = LOOPBACK_HOOK;
  if (chance() < 0.5) return body;
  const pick = <T>(values: readonly T[]) => values[Math.floor(chance() * values.length)]!;
  if ('messaging_account_id' in body) body.messaging_account_id = pick(MESSAGING_ACCOUNTS);
  if ('segment_id' in body) body.segment_id = pick(SEGMENTS).id;
  if ('template_name' in body) body.template_name = 'welcome';
  if ('automation_id' in body) body.automation_id = pick(AUTOMATIONS);
  if (body.type === 'template' && typeof body.content === 'object') body.content.name = 'welcome';
  if ('language' in body && 'components' in body) body.name = 'welcome';
  return body;
}

/** The fields of a 4xx a request that fits the document may still get: account data the document cannot list. */
const ACCOUNT_DATA_FIELDS = new Set(['messaging_account_id', 'segment_id']);

describe.each([1, 2] as const)('Variant %i: requests generated from its document', (variant: Variant) => {
  const document = openApiDocument(variant) as any;
  const contract = new OpenApiContract(closedDocument(document));
  const operations = operationsOf(document);
  let server: MockHttpServer;

  beforeAll(async () => {
    server = await startMockHttpServer({
      variant,
      seed: {
        contacts: [
          { name: 'Ada', phone: PHONE, tags: ['vip'] },
          { name: 'Bob', phone: '4915100000002' },
        ],
      },
    });
    server.mock.receiveMessage({ from: PHONE, body: 'Hello' });
  });
  afterAll(() => server.close());

  /** Ids that exist now, for the resource a path names. */
  function existingIds(path: string): Array<string | number> {
    const { store } = server.mock;
    if (path.startsWith('/messages/')) return [...store.messages.keys()];
    if (path.startsWith('/conversations/')) return store.conversations.map((c) => c.id);
    return store.contacts.map((c) => c.id);
  }

  it(
    `answers ${PER_OPERATION} requests per operation as its document says`,
    { timeout: LONG ? 600_000 : 60_000 },
    async () => {
      // Deep enough for a template's parameters (body > components > parameters > type): past its
      // default depth the generator writes "" for every string, which the document does not allow.
      const faker = createGeneratorSync({ seed: variant, optionalsProbability: 0.5, maxDefaultItems: 3, maxDepth: 10 });
      const generate = (schema: SchemaObject) => faker.generate({ ...schema, components: document.components });
      const chance = seeded(variant);
      const auth: Record<string, string> =
        variant === 1 ? { 'x-api-key': server.apiKey } : { authorization: `Bearer ${server.apiKey}` };
      const problems: string[] = [];
      const statuses: Record<string, number> = {};

      for (const operation of operations) {
        for (let i = 0; i < PER_OPERATION; i++) {
          let target = operation.path;
          const query = new URLSearchParams();
          for (const parameter of operation.parameters) {
            if (parameter.in === 'path') {
              const ids = existingIds(operation.path);
              const id =
                chance() < 0.5 && ids.length > 0 ? ids[Math.floor(chance() * ids.length)]! : generate(parameter.schema);
              target = target.replace(`{${parameter.name}}`, encodeURIComponent(String(id)));
            } else if (chance() < 0.5) query.set(parameter.name, String(generate(parameter.schema)));
          }
          const body = operation.body === undefined ? undefined : withAccountData(generate(operation.body), chance);
          const url = `${server.baseUrl}${target}${query.size > 0 ? `?${query}` : ''}`;
          const response = await fetch(url, {
            method: operation.method,
            headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          const text = await response.text();
          const answer = { status: response.status, headers: response.headers, body: JSON.parse(text) };
          const request = `${operation.method} ${url.slice(server.baseUrl.length)} ${JSON.stringify(body) ?? ''}`;
          const code: string | undefined = answer.body.error?.code;
          statuses[`${operation.method} ${operation.path} ${response.status}${code ? ` ${code}` : ''}`] ??= 0;
          statuses[`${operation.method} ${operation.path} ${response.status}${code ? ` ${code}` : ''}`]! += 1;
          for (const problem of contract.responseProblems(operation.method, operation.path, answer))
            problems.push(`${request} -> ${response.status}: ${problem}`);
          // Fits the document, so it is not malformed: only account data the document cannot know may be refused.
          if (code === 'VALIDATION_ERROR') {
            const fields = Object.keys(answer.body.error.details).filter((field) => !ACCOUNT_DATA_FIELDS.has(field));
            if (fields.length > 0)
              problems.push(`${request} -> ${response.status} refused ${fields.join(', ')}: ${text}`);
          }
          if (response.status >= 500) problems.push(`${request} -> ${response.status}: ${text}`);
        }
      }

      expect(problems).toEqual([]);
      expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(operations.length * PER_OPERATION);
      expect(operations).toHaveLength(variant === 1 ? 9 : 13);
      // Every operation succeeded at least once: the fuzz reached past the checks into the routes.
      for (const operation of operations)
        expect(
          Object.keys(statuses).some((key) => key.startsWith(`${operation.method} ${operation.path} 2`)),
          `${operation.method} ${operation.path}: ${JSON.stringify(statuses)}`,
        ).toBe(true);
      const byStatus: Record<string, number> = {};
      for (const [key, n] of Object.entries(statuses))
        byStatus[key.split(' ')[2]!] = (byStatus[key.split(' ')[2]!] ?? 0) + n;
      console.log(
        `openapi-requests, Variant ${variant}: ${operations.length * PER_OPERATION} requests over ${operations.length} operations, ` +
          `0 answers off the document; statuses ${JSON.stringify(byStatus)}`,
      );
    },
  );
});
