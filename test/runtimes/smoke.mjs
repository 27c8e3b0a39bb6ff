// Run by test/runtimes.test.ts under Bun and Deno: the built package against a mock over HTTP.
import { ValidationError, Variant2Client } from '../../dist/index.js';
import { signWebhook, verifyWebhook, verifyWebhookAsync, createWebhookHandler } from '../../dist/webhooks/index.js';

const [url, apiKey] = (globalThis.Deno?.args ?? globalThis.process.argv.slice(2));
const client = new Variant2Client({ apiKey, baseUrl: url });
const contact = await client.contacts.create({ name: 'Ada', phone: '+4915112345678', tags: ['vip'] });
const listed = await client.contacts.list({ tag: 'vip' }).toArray();
const sent = await client.messages.sendText({ to: contact.phone, messaging_account_id: 1, body: 'Hi' });
const invalid = await client.contacts.create({ name: '', phone: '+4915112345678' }).catch((error) => error);
const body = '{"event":"message.read","timestamp":"2026-11-21T10:00:00Z","data":{}}';
const signature = signWebhook(body, 'whsec');
const handler = createWebhookHandler({ secret: 'whsec' });
const answer = await handler(new Request('http://x.test/', { method: 'POST', body, headers: { 'x-service-signature': signature } }));
console.log(JSON.stringify({
  contact: contact.id,
  listed: listed.length,
  sent: sent.id,
  validation: invalid instanceof ValidationError ? invalid.details : String(invalid),
  verify: verifyWebhook(body, signature, 'whsec'),
  verifyAsync: await verifyWebhookAsync(body, signature, 'whsec'),
  handler: answer.status,
}));
