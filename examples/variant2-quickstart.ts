// Variant 2 quick start. Run against the service with BIZMSG_API_KEY and BIZMSG_BASE_URL set.
import { RateLimitExceededError, ValidationError, Variant2Client } from 'bizmsg';

const client = new Variant2Client(); // reads BIZMSG_API_KEY and BIZMSG_BASE_URL

const contact = await client.contacts.create({ name: 'Ada Lovelace', phone: '+4915112345678', tags: ['vip'] });
console.log('created contact', contact.id);

try {
  const message = await client.messages.sendText({ to: contact.phone, messaging_account_id: 1, body: 'Hello Ada!' });
  console.log('sent', message.id, message.status);
} catch (error) {
  if (error instanceof ValidationError) console.error('invalid fields:', error.details);
  else if (error instanceof RateLimitExceededError) console.error(`rate limited, retry in ${error.retryAfter}s`);
  else throw error;
}

for await (const vip of client.contacts.list({ tag: 'vip', per_page: 100 })) {
  console.log(vip.name, vip.phone);
}
