// Figure 3's child, run in the packed project by the Node under test: sequential requests to one
// local node:http server in this process, each subject in turn (alternating), and the median µs per
// request, wall and CPU, printed as one JSON line. Arguments: requests per batch, rounds, and
// `extra` for the bizmsg clients with a hook and with logging.
import { createServer } from 'node:http';
import ky from 'ky';
import OpenAI from 'openai';
import Stripe from 'stripe';
import { Variant2Client } from 'bizmsg';

const [batch = 300, rounds = 15] = process.argv.slice(2, 4).map(Number);
const extra = process.argv.includes('extra');
const BODY_BYTES = 1024;

/** A JSON body of exactly BODY_BYTES bytes with `fields`, padded. */
function padded(fields) {
  const base = JSON.stringify({ ...fields, padding: '' });
  return JSON.stringify({ ...fields, padding: 'x'.repeat(BODY_BYTES - base.length) });
}

const bodies = {
  '/api/v1/contacts/1': padded({
    id: 1,
    name: 'Ada Lovelace',
    phone: '+4915112345678',
    email: 'ada@example.com',
    tags: ['vip'],
  }),
  '/v1/models/gpt-x': padded({ id: 'gpt-x', object: 'model', created: 1700000000, owned_by: 'bench' }),
  '/v1/customers/cus_1': padded({ id: 'cus_1', object: 'customer', email: 'ada@example.com' }),
};

// Every answer carries the service's rate-limit headers: a fresh window each minute, never exhausted.
const server = createServer((req, res) => {
  const body = bodies[req.url.split('?')[0]] ?? '{}';
  const now = Math.floor(Date.now() / 1000);
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'request-id': 'req_1',
    'x-ratelimit-limit': '1000000',
    'x-ratelimit-remaining': '999999',
    'x-ratelimit-reset': String(now - (now % 60) + 60),
  });
  res.end(body);
});
server.keepAliveTimeout = 60_000;
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;
const baseUrl = `${origin}/api/v1`;
const headers = { authorization: 'Bearer sk_bench', accept: 'application/json' };
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const kyAlone = ky.create({ prefixUrl: baseUrl, headers, retry: 0 });
const bizmsg = new Variant2Client({ apiKey: 'sk_bench', baseUrl });
const openai = new OpenAI({ apiKey: 'sk_bench', baseURL: `${origin}/v1`, maxRetries: 0 });
const stripe = new Stripe('sk_test_bench', {
  host: '127.0.0.1',
  port: Number(new URL(origin).port),
  protocol: 'http',
  maxNetworkRetries: 0,
  telemetry: false,
});
const subjects = {
  // The same request a hand-written client sends: the auth and accept headers included.
  raw: async () => JSON.parse(await (await fetch(`${baseUrl}/contacts/1`, { headers })).text()),
  ky: async () => JSON.parse(await kyAlone.get('contacts/1').text()),
  bizmsg: () => bizmsg.contacts.get(1),
  openai: () => openai.models.retrieve('gpt-x'),
  stripe: () => stripe.customers.retrieve('cus_1'),
};
if (extra) {
  const hooked = new Variant2Client({ apiKey: 'sk_bench', baseUrl, hooks: { beforeRequest: [() => undefined] } });
  const logged = new Variant2Client({ apiKey: 'sk_bench', baseUrl, logLevel: 'info', logger: silent });
  subjects.hooked = () => hooked.contacts.get(1);
  subjects.logged = () => logged.contacts.get(1);
}

/** µs per request of `batch` sequential calls: [wall, CPU of this process]. */
async function measure(call) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < batch; i++) await call();
  const used = process.cpuUsage(cpu);
  return [((performance.now() - started) * 1000) / batch, (used.user + used.system) / batch];
}

const names = Object.keys(subjects);
for (const name of names) await measure(subjects[name]); // warm-up: connections, JIT, lazy imports
const samples = Object.fromEntries(names.map((name) => [name, { wall: [], cpu: [] }]));
for (let round = 0; round < rounds; round++) {
  for (const name of round % 2 === 0 ? names : [...names].reverse()) {
    const [wall, cpu] = await measure(subjects[name]);
    samples[name].wall.push(wall);
    samples[name].cpu.push(cpu);
  }
}
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const result = Object.fromEntries(
  names.map((name) => [name, { wall: median(samples[name].wall), cpu: median(samples[name].cpu) }]),
);
console.log(JSON.stringify(result));
server.closeAllConnections();
server.close();
