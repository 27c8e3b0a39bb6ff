// What the contacts.sync tests share: an emulator over HTTP behind a counting forwarder, a client
// on it, numbers in the spellings users write them, and the model a test checks the account against.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { Variant1Client, Variant2Client, type ClientOptions, type ContactSyncRow } from '../../src/index.js';
import { startMockHttpServer, type MockHttpServer, type MockServerOptions } from '../../src/mock/index.js';
import { normalizePhone } from '../../src/shared/phone.js';
import { startCountingForwarder, type CountingForwarder, type ForwarderHooks } from '../helpers/counting-forwarder.js';

/** The digits of number `i` (13 digits, a German mobile range). */
export const digitsOf = (i: number): string => `4915110${String(i).padStart(6, '0')}`;

/** Number `digits` written as users write it, spelling `k` of six. */
export function spell(digits: string, k: number): string {
  const cc = digits.slice(0, 2);
  const rest = digits.slice(2);
  return [
    `+${digits}`,
    digits,
    `00${digits}`,
    `+${cc} ${rest.slice(0, 3)} ${rest.slice(3, 7)} ${rest.slice(7)}`,
    `${cc}-${rest.slice(0, 3)}-${rest.slice(3)}`,
    `+${cc} (${rest.slice(0, 3)}) ${rest.slice(3)}`,
  ][k % 6]!;
}

/** A small seeded PRNG (mulberry32): the same lists every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The fields each number should end with after `rows`: a later row's fields win, custom fields key by key. */
export function expectedFields(rows: readonly unknown[]): Map<string, Omit<ContactSyncRow, 'phone'>> {
  const model = new Map<string, Omit<ContactSyncRow, 'phone'>>();
  for (const row of rows) {
    let digits: string;
    try {
      digits = normalizePhone((row as ContactSyncRow).phone, { format: 'digits' });
    } catch {
      continue;
    }
    const { phone: _phone, ...fields } = row as ContactSyncRow;
    const before = model.get(digits) ?? {};
    const custom =
      before.custom_fields && fields.custom_fields
        ? { custom_fields: { ...before.custom_fields, ...fields.custom_fields } }
        : {};
    model.set(digits, { ...before, ...fields, ...custom });
  }
  return model;
}

/** The emulator (Variant `variant`, a key without a tight limit), a counting forwarder before it, started once per file. */
export function useSyncEmulator(
  variant: 1 | 2 = 2,
  options: Omit<MockServerOptions, 'variant'> = {},
  hooks: ForwarderHooks = {},
) {
  let server: MockHttpServer | undefined;
  let forwarder: CountingForwarder | undefined;
  beforeAll(async () => {
    const plans: MockServerOptions['plans'] = { [variant === 2 ? 'enterprise' : 'pro']: { rateLimit: 1_000_000 } };
    server = await startMockHttpServer({ variant, plans, ...options });
    forwarder = await startCountingForwarder(server.baseUrl, hooks);
  });
  afterAll(async () => {
    await forwarder?.close();
    await server?.close();
  });
  beforeEach(() => {
    server!.mock.reset();
    forwarder!.reset();
  });
  return {
    get server(): MockHttpServer {
      return server!;
    },
    get forwarder(): CountingForwarder {
      return forwarder!;
    },
    /** A client of the variant through the forwarder. */
    client(more: ClientOptions = {}) {
      const options = { apiKey: server!.apiKey, baseUrl: forwarder!.baseUrl, ...more };
      return variant === 2 ? new Variant2Client(options) : new Variant1Client(options);
    },
    /** The account's contacts by the digits of their number, one contact per number checked. */
    contactsByNumber() {
      const byNumber = new Map<string, MockHttpServer['mock']['store']['contacts'][number]>();
      for (const contact of server!.mock.store.contacts) {
        const digits = normalizePhone(contact.phone, { format: 'digits' });
        if (byNumber.has(digits)) throw new Error(`two contacts with the number ${digits}`);
        byNumber.set(digits, contact);
      }
      return byNumber;
    },
  };
}

/**
 * A `fetch` that, before its first create leaves (so after the sync read the account), has
 * another writer take the number of the first row: `takeNumber()` creates that contact first.
 */
export function racingFetch(takeNumber: () => Promise<unknown>): typeof globalThis.fetch {
  let raced = false;
  return async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && !raced) {
      raced = true;
      await takeNumber();
    }
    return globalThis.fetch(request);
  };
}
