// Where a mock starts, and returns to on reset(): its keys, and the seed's contacts and endpoints.
import { checkArguments, SeedInput } from '../control/schemas.js';
import type { MockServerOptions } from '../options.js';
import type { KeyRing } from './keys.js';
import type { StoredWebhookEndpoint } from './records.js';
import type { MockStore } from './store.js';

/** What seeding needs of the mock. */
interface Seeding {
  readonly keys: KeyRing;
  /** The seeded all-scope key. */
  readonly apiKey: string;
  /** The clock's time, ISO 8601: when the seeded records were made. */
  readonly now: string;
  /** Registers the seed's endpoint number `index` (a refusal names its field by it). */
  readonly registerWebhook: (
    endpoint: { url: string; events: readonly string[]; secret: string },
    index: number,
  ) => StoredWebhookEndpoint;
}

/** Fills an empty store with the keys and the seed data of `options`; a bad seed is an InvalidArgumentError naming the field. */
export function applySeed(
  store: MockStore,
  options: MockServerOptions,
  { keys, apiKey, now, registerWebhook }: Seeding,
): void {
  keys.add(store, { key: apiKey });
  for (const spec of options.keys ?? []) keys.add(store, spec);
  if (typeof options.seed !== 'object') return;
  const seed = checkArguments(SeedInput, options.seed, 'seed');
  for (const { tags, custom_fields, ...contact } of seed.contacts ?? []) {
    store.addContact({
      id: store.nextId('contact'),
      ...contact,
      tags: [...(tags ?? [])],
      custom_fields: { ...custom_fields },
      created_at: now,
      updated_at: now,
    });
  }
  (seed.webhooks ?? []).forEach((endpoint, index) => registerWebhook(endpoint, index));
}
