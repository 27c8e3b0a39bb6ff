import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEpoch, readTimestamp } from '../../src/shared/timestamp.js';

// readEpoch is readTimestamp without the ISO 8601 parser, for the clients' bundle (figure 1): the
// two must agree on every epoch and readEpoch must read nothing else.

describe('readEpoch', () => {
  it('reads seconds and milliseconds since the epoch, as numbers or strings of digits', () => {
    expect([readEpoch(1795000000), readEpoch('1795000000'), readEpoch(1795000000123)]).toEqual([
      1795000000000, 1795000000000, 1795000000123,
    ]);
    expect([readEpoch(0), readEpoch(-5), readEpoch(Number.NaN), readEpoch('12a'), readEpoch(null)]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('reads no ISO 8601 text, which readTimestamp reads', () => {
    expect([readEpoch('2026-11-28T10:00:00Z'), readTimestamp('2026-11-28T10:00:00Z')]).toEqual([
      undefined,
      Date.UTC(2026, 10, 28, 10),
    ]);
  });

  it('agrees with readTimestamp on every number and every string of 9 digits or more', () => {
    // Eight digits can be an ISO 8601 basic date, which readTimestamp reads first: the drift check
    // hands readEpoch 9 to 13 digits only (contract/drift.ts).
    expect([readTimestamp('20261128'), readEpoch('20261128')]).toEqual([Date.UTC(2026, 10, 28), 20261128000]);
    const epochs = fc.oneof(
      fc.double({ noNaN: false }),
      fc.integer({ min: 0, max: 9_999_999_999_999 }),
      fc.stringMatching(/^\d{9,16}(\.\d{1,3})?$/),
    );
    fc.assert(fc.property(epochs, (value) => readEpoch(value) === readTimestamp(value)));
  });
});
