import { describe, expect, it } from 'vitest';
import type { Variant1Client } from '../../src/index.js';
import { digitsOf, racingFetch, spell, useSyncEmulator } from './fixtures.js';

// Variant 1 has no search and no delete; contacts.sync needs neither: the same list, creates with
// POST /contacts/create, updates with PUT, and a number taken by another writer settled by reading
// the account again.

const emulator = useSyncEmulator(1);
const client = (options = {}) => emulator.client(options) as Variant1Client;
const rowsOf = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ phone: spell(digitsOf(i), i), name: `Customer ${i}`, tags: ['v1'] }));

describe('contacts.sync on Variant 1', () => {
  it('creates, then writes nothing for an unchanged list, then updates only what changed', async () => {
    const c = client();
    expect(await c.contacts.sync([...rowsOf(150), { phone: '0151 999', name: 'junk' }, rowsOf(1)[0]!])).toEqual({
      total: 152,
      created: 150,
      updated: 0,
      unchanged: 0,
      failed: 1,
      merged: 1,
      aborted: false,
    });
    expect(emulator.forwarder.count('POST /contacts/create')).toBe(150);
    emulator.forwarder.reset();
    expect(await c.contacts.sync(rowsOf(150))).toMatchObject({ unchanged: 150 });
    expect(emulator.forwarder.requests).toEqual(['GET /contacts', 'GET /contacts']);
    emulator.forwarder.reset();
    const changed = rowsOf(150).map((row, i) => (i < 5 ? { ...row, name: 'Renamed' } : row));
    expect(await c.contacts.sync(changed)).toMatchObject({ updated: 5, unchanged: 145 });
    expect(emulator.forwarder.count(/^PUT \/contacts\/\d+$/)).toBe(5);
    expect(emulator.contactsByNumber().size).toBe(150);
  });

  it('a number another writer took since the read: updated after reading the account again, one contact', async () => {
    const other = client();
    const racing = racingFetch(() => other.contacts.create({ phone: digitsOf(0), name: 'Other writer' }));
    expect(await client({ fetch: racing }).contacts.sync(rowsOf(3), { concurrency: 1 })).toMatchObject({
      created: 2,
      updated: 1,
      failed: 0,
    });
    const stored = emulator.contactsByNumber();
    expect(stored.size).toBe(3);
    expect(stored.get(digitsOf(0))!.name).toBe('Customer 0');
  });
});
