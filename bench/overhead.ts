import ky from 'ky';
import OpenAI from 'openai';
import Stripe from 'stripe';
import { Variant2Client, type Logger } from 'bizmsg';
import { alternate, ratio, type BenchOptions, type Row } from './lib.js';
import { localServer } from './local-server.js';

const BODY_BYTES = 1024;
const rawHeaders = { authorization: 'Bearer sk_bench', accept: 'application/json' };

/** A JSON body of exactly BODY_BYTES bytes with `fields`, padded. */
function padded(fields: Record<string, unknown>): string {
  const base = JSON.stringify({ ...fields, padding: '' });
  return JSON.stringify({ ...fields, padding: 'x'.repeat(BODY_BYTES - base.length) });
}

const contact = padded({
  id: 1,
  name: 'Ada Lovelace',
  phone: '+4915112345678',
  email: 'ada@example.com',
  tags: ['vip'],
});
const bodies: Record<string, string> = {
  '/api/v1/contacts/1': contact,
  '/v1/models/gpt-x': padded({ id: 'gpt-x', object: 'model', created: 1700000000, owned_by: 'bench' }),
  '/v1/customers/cus_1': padded({ id: 'cus_1', object: 'customer', email: 'ada@example.com' }),
};

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** The service's rate-limit headers, a fresh window every minute, never exhausted. */
function rateLimitHeaders(): Record<string, string> {
  const now = Math.floor(Date.now() / 1000);
  return {
    'x-ratelimit-limit': '1000000',
    'x-ratelimit-remaining': '999999',
    'x-ratelimit-reset': String(now - (now % 60) + 60),
  };
}

/** Figure 3: per-request overhead against one local server, sequential requests. */
export async function measureOverhead({ quick }: BenchOptions): Promise<Row[]> {
  const server = await localServer((req, res) => {
    const body = bodies[req.url!.split('?')[0]!] ?? '{}';
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(body.length),
      'request-id': 'req_1',
      ...rateLimitHeaders(),
    });
    res.end(body);
  });
  try {
    const baseUrl = `${server.origin}/api/v1`;
    const bizmsg = new Variant2Client({ apiKey: 'sk_bench', baseUrl });
    const logged = new Variant2Client({ apiKey: 'sk_bench', baseUrl, logLevel: 'info', logger: silent });
    const hooked = new Variant2Client({ apiKey: 'sk_bench', baseUrl, hooks: { beforeRequest: [() => undefined] } });
    const kyAlone = ky.create({ prefixUrl: baseUrl, headers: rawHeaders, retry: 0 });
    const openai = new OpenAI({ apiKey: 'sk_bench', baseURL: `${server.origin}/v1`, maxRetries: 0 });
    const stripe = new Stripe('sk_test_bench', {
      host: '127.0.0.1',
      port: Number(new URL(server.origin).port),
      protocol: 'http',
      maxNetworkRetries: 0,
      telemetry: false,
    });
    const subjects = {
      // The same request a hand-written client sends: the auth and accept headers included.
      raw: async () =>
        JSON.parse(
          await (await fetch(`${server.origin}/api/v1/contacts/1`, { headers: rawHeaders })).text(),
        ) as unknown,
      ky: async () => JSON.parse(await kyAlone.get('contacts/1').text()) as unknown,
      bizmsg: () => bizmsg.contacts.get(1),
      logged: () => logged.contacts.get(1),
      hooked: () => hooked.contacts.get(1),
      openai: () => openai.models.retrieve('gpt-x'),
      stripe: () => stripe.customers.retrieve('cus_1'),
    };
    const batch = quick ? 50 : 300;
    const perRequest = (call: () => Promise<unknown>) => async () => {
      const started = performance.now();
      for (let i = 0; i < batch; i++) await call();
      return ((performance.now() - started) / batch) * 1000;
    };
    for (const call of Object.values(subjects)) await perRequest(call)(); // warm-up: connections, JIT, lazy imports
    const us = await alternate(quick ? 3 : 15, {
      raw: perRequest(subjects.raw),
      ky: perRequest(subjects.ky),
      bizmsg: perRequest(subjects.bizmsg),
      logged: perRequest(subjects.logged),
      hooked: perRequest(subjects.hooked),
      openai: perRequest(subjects.openai),
      stripe: perRequest(subjects.stripe),
    });
    const row = (subject: string, value: number, target?: Row['target']): Row => ({
      figure: '3',
      subject,
      value: Math.round(value),
      unit: 'µs/request',
      baseline: { name: 'raw fetch + JSON.parse', value: Math.round(us.raw), ratio: ratio(value, us.raw) },
      ...(target ? { target } : {}),
    });
    const vsDefault = (subject: string, value: number): Row => ({
      figure: '3',
      subject,
      value: Math.round(value),
      unit: 'µs/request',
      baseline: {
        name: 'bizmsg, logging off, no tracer',
        value: Math.round(us.bizmsg),
        ratio: ratio(value, us.bizmsg),
      },
    });
    return [
      row(`bizmsg contacts.get (1 KB body, rate-limit headers; ${process.version})`, us.bizmsg, {
        text: '<= 1.5x raw fetch, ahead of openai',
        met: us.bizmsg <= 1.5 * us.raw && us.bizmsg < us.openai,
      }),
      row('ky alone (retry 0), same request', us.ky),
      row('openai models.retrieve (1 KB body)', us.openai),
      row('stripe customers.retrieve (1 KB body)', us.stripe),
      vsDefault('bizmsg with a no-op beforeRequest hook', us.hooked),
      vsDefault('bizmsg with logLevel info (to a no-op logger)', us.logged),
    ];
  } finally {
    await server.close();
  }
}
