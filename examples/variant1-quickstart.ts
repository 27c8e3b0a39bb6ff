// Variant 1 quick start. Run against the service with BIZMSG_API_KEY and BIZMSG_BASE_URL set.
import { Variant1Client } from 'bizmsg';

const client = new Variant1Client({ timeout: 10_000, maxRetries: 3 });

const account = await client.account.me();
console.log('account', account.name, account.plan);

const sent = await client.messages.send({ to: '4915112345678', message: 'Your order has shipped.' });
const status = await client.messages.status(sent.id);
console.log(sent.id, status.status, status.delivered_at ?? 'not delivered yet');

const firstPage = await client.contacts.list({ per_page: 50 });
console.log(`${firstPage.meta?.total ?? firstPage.data.length} contacts`);
