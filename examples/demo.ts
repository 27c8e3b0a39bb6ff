// The whole flow against the embedded mock, no account needed: npm run demo
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  InvalidArgumentError,
  InvalidPhoneError,
  RateLimitExceededError,
  ValidationError,
  Variant2Client,
} from 'bizmsg';
import { createMockServer, LIFECYCLE_MS } from 'bizmsg/mock';
import { webhookMiddleware, type WebhookEvent } from 'bizmsg/webhooks';

const step = (n: number, text: string) => console.log(`\n${n}. ${text}`);
const WEBHOOK_SECRET = 'whsec_demo_secret';

// A mock of Variant 2 inside this process (msw), with a small plan for the paced burst at the end.
const mock = createMockServer({ variant: 2, plans: { demo: { rateLimit: 5, window: 2000 } } });
mock.listen();
const client = new Variant2Client({ apiKey: mock.apiKey, baseUrl: mock.baseUrl });

// A webhook receiver on a real local port that verifies every signature.
const events: WebhookEvent[] = [];
let showEvents = true;
const receive = webhookMiddleware({
  secret: WEBHOOK_SECRET,
  onEvent: (event) => {
    events.push(event);
    if (showEvents) console.log(`   webhook <- ${event.event.padEnd(20)} ${JSON.stringify(event.data).slice(0, 90)}`);
  },
});
// The middleware's promise never rejects: every failure is answered.
const receiver = createServer((req, res) => void receive(req, res));
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

try {
  step(1, `Mock service at ${mock.baseUrl}; account:`);
  const account = await client.account.me();
  console.log(`   ${account.name} (${account.plan} plan)`);

  step(2, `Register a webhook endpoint -> ${receiverUrl}`);
  const endpoint = await client.webhooks.create({
    url: receiverUrl,
    events: ['contact.created', 'message.sent', 'message.delivered', 'message.read', 'conversation.created'],
    secret: WEBHOOK_SECRET,
  });
  console.log(`   endpoint ${endpoint.id} is ${endpoint.status}`);

  step(3, 'Create five contacts');
  const people = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Katherine Johnson', 'Edsger Dijkstra'];
  for (const [i, name] of people.entries()) {
    const contact = await client.contacts.create({
      name,
      phone: `+49151000000${i + 1}`,
      tags: i % 2 === 0 ? ['vip'] : [],
    });
    console.log(
      `   #${contact.id} ${contact.name} ${contact.phone}${contact.tags?.length ? ` [${contact.tags.join(', ')}]` : ''}`,
    );
  }
  await mock.clock.settled();

  step(4, 'Page through them, two per page');
  for await (const page of client.contacts.list({ per_page: 2 }).pages()) {
    console.log(
      `   page ${page.meta?.current_page}/${page.meta?.last_page}: ${page.data.map((c) => c.name).join(', ')}`,
    );
  }
  const vips = await client.contacts.list({ tag: 'vip' }).toArray();
  console.log(`   VIPs: ${vips.map((c) => c.name).join(', ')}`);

  step(5, 'Send a text and a template message');
  const text = await client.messages.sendText({ to: '+491510000001', messaging_account_id: 1, body: 'Hello Ada!' });
  const template = await client.messages.sendTemplate({
    to: '+491510000002',
    messaging_account_id: 1,
    name: 'welcome',
    language: 'en',
    components: [],
  });
  console.log(`   ${text.id}: ${text.status}; ${template.id}: ${template.status}`);
  await mock.clock.settled();

  step(6, `Advance the mock's clock by ${LIFECYCLE_MS.read / 1000} s: deliveries and reads arrive as webhooks`);
  await mock.clock.advance(LIFECYCLE_MS.read);
  const conversation = await client.conversations.get(text.conversation_id!);
  console.log(
    `   conversation ${conversation.id} (${conversation.status}): ${conversation.messages.map((m) => `${m.id}=${m.status}`).join(', ')}`,
  );

  step(7, 'Typed errors: a number refused before sending, and the service refusing a field');
  for (const contact of [
    { name: 'Nobody', phone: '12-34' },
    { name: '', phone: '+4915100000099' },
  ]) {
    try {
      await client.contacts.create(contact);
    } catch (error) {
      if (error instanceof InvalidArgumentError) console.log(`   ${error.name}: ${error.message}`);
      else if (error instanceof InvalidPhoneError || error instanceof ValidationError) {
        console.log(`   ${error.name}: ${error.message}`);
        console.log(`   details: ${JSON.stringify(error.details)}`);
      } else throw error;
    }
  }

  step(8, 'A burst of 15 sends from 5 concurrent callers on a plan of 5 requests per 2 s');
  showEvents = false;
  const eventsBefore = events.length;
  const paced = new Variant2Client({ apiKey: mock.createKey({ plan: 'demo' }), baseUrl: mock.baseUrl, maxRetries: 0 });
  const started = performance.now();
  let next = 0;
  let limited = 0;
  await Promise.all(
    Array.from({ length: 5 }, async () => {
      while (next < 15) {
        next += 1;
        await paced.messages
          .sendText({ to: '+491510000003', messaging_account_id: 1, body: `burst ${next}` })
          .catch((error: unknown) => {
            if (error instanceof RateLimitExceededError) limited += 1;
            else throw error;
          });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `   15 sent in ${seconds.toFixed(1)} s with ${limited} rate-limit errors: the client waited for each window instead of collecting 429s`,
  );
  console.log(`   last rate-limit headers: ${JSON.stringify(paced.rateLimit)}`);

  await mock.clock.settled();
  console.log(`   (${events.length - eventsBefore} more webhook events arrived meanwhile, not shown)`);
  console.log(
    `\nDone: ${events.length} webhook events received and verified, ${mock.deliveries.filter((d) => d.ok).length} deliveries acknowledged.`,
  );
} finally {
  mock.close();
  receiver.close();
}
