import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { Variant2Client, type ClientOptions } from '../../../src/index.js';
import { json, networkError, scriptedFetch, v2Error, type Step } from '../../helpers/scripted-fetch.js';

const BASE = 'https://api.bizmsg.test/api/v1';
const KEY = 'sk_live_trace_SECRET_42';
const window = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '97', 'x-ratelimit-reset': '1795000000' };
const ok = json(200, { data: { id: 1, phone: '4915112345678' } }, window);

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

function setup(steps: Step[], options: Partial<ClientOptions> = {}) {
  const { fetch, requests } = scriptedFetch(...steps);
  return { client: new Variant2Client({ apiKey: KEY, baseUrl: BASE, fetch, ...options }), requests };
}

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
});
afterEach(() => {
  trace.disable();
  exporter.reset();
});
afterAll(() => {
  context.disable();
});

describe('OpenTelemetry', () => {
  it('makes no span while no tracer provider is registered', async () => {
    const { client } = setup([ok]);
    await client.contacts.get(1);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('makes one client span per call, following the HTTP semantic conventions', async () => {
    trace.setGlobalTracerProvider(provider);
    const { client } = setup([ok]);
    await client.contacts.get(1);
    const [span, ...more] = exporter.getFinishedSpans();
    expect(more).toEqual([]);
    expect(span!.name).toBe('GET contacts/{id}');
    expect(span!.kind).toBe(2); // SpanKind.CLIENT
    expect(span!.attributes).toEqual({
      'http.request.method': 'GET',
      'url.full': `${BASE}/contacts/1`,
      'url.template': 'contacts/{id}',
      'server.address': 'api.bizmsg.test',
      'server.port': 443,
      'http.response.status_code': 200,
      'bizmsg.rate_limit.limit': 100,
      'bizmsg.rate_limit.remaining': 97,
      'bizmsg.rate_limit.reset': 1795000000,
    });
    expect(span!.status.code).toBe(0); // UNSET
    expect(span!.events).toEqual([]);
  });

  it('records retries as events with their wait, and the resend count', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    trace.setGlobalTracerProvider(provider);
    const { client } = setup([networkError('ECONNRESET'), v2Error(503, 'X'), json(200, { data: [] })]);
    await client.contacts.list({ tag: 'vip' });
    const [span] = exporter.getFinishedSpans();
    expect(span!.name).toBe('GET contacts');
    expect(span!.attributes['url.full']).toBe(`${BASE}/contacts?tag=vip`);
    expect(span!.attributes['http.request.resend_count']).toBe(2);
    expect(span!.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'bizmsg.retry',
        {
          'bizmsg.retry.attempt': 1,
          'bizmsg.retry.delay_ms': 250,
          'bizmsg.retry.outcome': 'network error (ECONNRESET)',
        },
      ],
      ['bizmsg.retry', { 'bizmsg.retry.attempt': 2, 'bizmsg.retry.delay_ms': 500, 'bizmsg.retry.outcome': '503' }],
    ]);
  });

  it("masks customers' numbers in the URL and the error, as log lines do", async () => {
    trace.setGlobalTracerProvider(provider);
    const invalid = v2Error(400, 'INVALID_PHONE', 'The phone number +4917612340502 is not valid');
    const { client } = setup([json(200, { data: [] }), invalid]);
    await client.contacts.findByPhone('+49 151 1234 5679');
    await client.contacts.create({ phone: '+4917612340502', name: 'Ada' }).catch(() => undefined);
    const [search, create] = exporter.getFinishedSpans();
    expect(search!.attributes['url.full']).toBe(`${BASE}/contacts?search=49\u2022\u2022\u2022\u2022\u2022679`);
    expect(create!.status.message).toBe(
      'POST /contacts failed with 400 INVALID_PHONE: The phone number +49\u2022\u2022\u2022\u2022\u2022502 is not valid',
    );
    expect(JSON.stringify(exporter.getFinishedSpans().map((s) => [s.attributes, s.status]))).not.toMatch(/\d{7}/);
  });

  it('marks a failed call as an error, with error.type, and never records the key', async () => {
    trace.setGlobalTracerProvider(provider);
    const { client } = setup([v2Error(401, 'AUTHENTICATION_ERROR', `bad key ${KEY}`)]);
    await client.contacts.get(KEY).catch(() => undefined);
    const [span] = exporter.getFinishedSpans();
    expect(span!.status).toEqual({
      code: 2,
      message: 'GET /contacts/[REDACTED] failed with 401 AUTHENTICATION_ERROR: bad key [REDACTED]',
    });
    expect(span!.attributes['error.type']).toBe('401');
    expect(span!.attributes['url.full']).toBe(`${BASE}/contacts/[REDACTED]`);
    expect(
      JSON.stringify({ name: span!.name, attributes: span!.attributes, events: span!.events, status: span!.status }),
    ).not.toContain(KEY);
  });

  it('is the parent of spans made while the request is on the wire', async () => {
    trace.setGlobalTracerProvider(provider);
    const tracer = trace.getTracer('test-fetch');
    const { client } = setup([
      () => {
        tracer.startSpan('fetch inside').end();
        return ok.clone();
      },
    ]);
    await client.contacts.get(1);
    const spans = exporter.getFinishedSpans();
    const inner = spans.find((s) => s.name === 'fetch inside')!;
    const call = spans.find((s) => s.name === 'GET contacts/{id}')!;
    expect(inner.parentSpanContext?.spanId).toBe(call.spanContext().spanId);
  });
});

describe("the Web build's tracing (core/transport/tracing.web.ts, the workerd, worker and browser conditions)", () => {
  it('stands in for tracing.ts with the same exports, and makes no span even with a provider registered', async () => {
    const [full, web] = await Promise.all([
      import('../../../src/core/transport/tracing.js'),
      import('../../../src/core/transport/tracing.web.js'),
    ]);
    expect(Object.keys(web).sort()).toEqual(Object.keys(full).sort());
    trace.setGlobalTracerProvider(provider);
    await web.findTracing();
    expect(web.tracingKnown()).toBe(true);
    expect(web.startCallSpan('GET', 'contacts/{id}', () => `${BASE}/contacts/1`)).toBeUndefined();
    // The full build, given the same provider, does make one: the stand-in is what differs.
    await full.findTracing();
    const span = full.startCallSpan('GET', 'contacts/{id}', () => `${BASE}/contacts/1`);
    expect(span).toBeDefined();
    span?.end(200, 0, undefined);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['GET contacts/{id}']);
  });
});
