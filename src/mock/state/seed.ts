// Where a mock starts, and returns to on reset(): its keys, and the seed's contacts and endpoints.
import * as z from 'zod/mini';
import { RecordSchema, nonEmptyString } from '../../schemas/common.js';
import { PHONE_PATTERN } from '../../shared/phone-pattern.js';
import { checkArguments, Phone, WebhookInput } from '../calls/schemas.js';
import type { MockServerOptions } from '../options.js';
import type { KeyRing } from './keys.js';
import type { StoredWebhookEndpoint } from './records.js';
import { phoneKey, type MockStore } from './store.js';

/** The seed data of `createMockServer({ seed })`: where the mock starts, and returns to on `reset()`. */
export const SeedInput = /* @__PURE__ */ z.strictObject({
  random: z.optional(z.int()),
  contacts: z.optional(
    z
      .array(
        z.strictObject({
          name: nonEmptyString(),
          phone: Phone,
          email: z.optional(z.email()),
          tags: z.optional(z.array(z.string())),
          custom_fields: z.optional(RecordSchema),
        }),
      )
      .check(z.superRefine(onePerNumber)),
  ),
  webhooks: z.optional(z.array(WebhookInput)),
});

/** One seeded contact per number, as the service keeps them: a second spelling of a number is refused. */
function onePerNumber(contacts: ReadonlyArray<{ phone: string }>, ctx: z.core.$RefinementCtx): void {
  const first = new Map<string, number>();
  contacts.forEach(({ phone }, index) => {
    if (!PHONE_PATTERN.test(phone)) return; // refused as it is
    const earlier = first.get(phoneKey(phone));
    if (earlier === undefined) first.set(phoneKey(phone), index);
    else
      ctx.addIssue({
        code: 'custom',
        path: [index, 'phone'],
        message: `is already the number of contacts.${earlier}`,
        input: phone,
      });
  });
}

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

/**
 * Fills an empty store with the keys and the seed data of `options`; a bad seed is an
 * InvalidArgumentError naming the field. Each store gets its own deep copy of the seed: nothing it
 * holds (a contact's custom fields, an endpoint's status, its events) is shared with the seed the
 * caller passed, nor with an earlier store, so that `reset()` brings back every seeded record as
 * the seed describes it, whatever was done to the records of the store before.
 */
export function applySeed(
  store: MockStore,
  options: MockServerOptions,
  { keys, apiKey, now, registerWebhook }: Seeding,
): void {
  keys.add(store, { key: apiKey });
  for (const spec of options.keys ?? []) keys.add(store, spec);
  if (typeof options.seed !== 'object') return;
  // Checked, then copied whole: a schema's `unknown` (custom_fields' values) keeps the caller's objects.
  const seed = structuredClone(checkArguments(SeedInput, options.seed, 'seed'));
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
