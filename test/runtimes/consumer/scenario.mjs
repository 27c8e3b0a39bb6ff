// What every runtime of the matrix runs against the packed package, given the entries it loaded.
// It returns plain data; test/runtimes/expected.ts says what that data must be.

const SECRET = 'whsec_matrix';
/**
 * The delivery verified everywhere, stamped now: the receivers refuse one older than 27 h by default.
 * Made when the scenario runs, not when the module loads: a Worker's clock reads 1970 at load time.
 */
const eventNow = () =>
  JSON.stringify({
    event: 'message.read',
    timestamp: new Date().toISOString(),
    data: { message_id: 'msg_1', to: '4915112345678', status: 'read' },
  });

/**
 * @param {object} run
 * @param {Record<string, Record<string, unknown>>} run.entries the loaded entries, by specifier
 * @param {string} run.baseUrl the mock's base URL, ending with /api/v1
 * @param {string} run.apiKey a key of the mock
 * @param {boolean} run.sync whether the runtime has node:crypto for the sync webhook functions
 */
export async function runScenario({ entries, baseUrl, apiKey, sync }) {
  const result = {
    exports: Object.fromEntries(Object.entries(entries).map(([name, module]) => [name, Object.keys(module).sort()])),
    client: await callTheMock(entries['bizmsg'], baseUrl, apiKey),
    webhooks: await verifyWebhooks(entries['bizmsg/webhooks'], sync),
  };
  if (entries['bizmsg/mock']) result.mock = await callTheMockInProcess(entries['bizmsg/mock'], entries['bizmsg']);
  return result;
}

async function callTheMock({ Variant2Client, ValidationError }, baseUrl, apiKey, fetch) {
  const client = new Variant2Client({ apiKey, baseUrl, fetch });
  const contact = await client.contacts.create({ name: 'Ada', phone: '+4915112345678', tags: ['vip'] });
  const listed = await client.contacts.list({ tag: 'vip' }).toArray();
  const sent = await client.messages.sendText({ to: contact.phone, messaging_account_id: 1, body: 'Hi' });
  const invalid = await client.contacts.create({ name: '', phone: '+4915112345678' }).catch((error) => error);
  return {
    contact: contact.id,
    listed: listed.map((item) => item.name),
    sent: sent.id,
    validation: invalid instanceof ValidationError ? invalid.details : String(invalid),
  };
}

async function verifyWebhooks(webhooks, sync) {
  const EVENT = eventNow();
  // Signed here with Web Crypto, independently of the package under test.
  const signature = `sha256=${await hmacHex(EVENT, SECRET)}`;
  const handler = webhooks.createWebhookHandler({ secret: SECRET, on: { 'message.read': () => {} } });
  const post = (headers) =>
    handler(new Request('http://receiver.test/hooks', { method: 'POST', body: EVENT, headers }));
  const result = {
    async: {
      sign: (await webhooks.signWebhookAsync(EVENT, SECRET)) === signature,
      verify: await webhooks.verifyWebhookAsync(EVENT, signature, SECRET),
      verifyWrongSecret: await webhooks.verifyWebhookAsync(EVENT, signature, 'other'),
      parse: (await webhooks.parseWebhookAsync(EVENT, signature, SECRET)).data,
    },
    handler: [(await post({ 'x-service-signature': signature })).status, (await post({})).status],
  };
  if (!sync) {
    // The Web build's sync functions throw, naming the async function to use instead.
    result.syncNamesAsync = ['verifyWebhook', 'parseWebhook', 'signWebhook'].map((name) => {
      try {
        webhooks[name](EVENT, signature, SECRET);
        return `${name} returned`;
      } catch (error) {
        return String(error.message).includes(`${name}Async`) ? `${name}: use ${name}Async` : String(error);
      }
    });
  }
  if (sync) {
    result.sync = {
      sign: webhooks.signWebhook(EVENT, SECRET) === signature,
      verify: webhooks.verifyWebhook(EVENT, signature, SECRET),
      verifyWrongSecret: webhooks.verifyWebhook(EVENT, signature, 'other'),
      parse: webhooks.parseWebhook(EVENT, signature, SECRET).data,
    };
  }
  return result;
}

/**
 * The client against the mock loaded in this runtime: its Web-API core (`MockService`, every build)
 * with the client's fetch option handing each request to it, and where the build has msw/node
 * (`createMockServer`), through msw's interception of the global fetch.
 */
async function callTheMockInProcess({ MockService, createMockServer }, main) {
  const service = new MockService({ variant: 2 });
  const result = {};
  try {
    const fetch = (input, init) => service.handle(new Request(input, init));
    result.service = await callTheMock(main, service.baseUrl, service.apiKey, fetch);
  } finally {
    service.pause();
  }
  if (createMockServer === undefined) return result;
  const server = createMockServer({ variant: 2 });
  server.listen();
  try {
    result.msw = await callTheMock(main, server.baseUrl, server.apiKey);
  } finally {
    server.close();
  }
  return result;
}

async function hmacHex(text, secret) {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(text)));
  return Array.from(mac, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
