import { describe, expect, it } from 'vitest';
import { endpointsOf, errorCodesOf } from '../../src/contract/endpoints.js';
import { ERROR_CODES } from '../../src/contract/error-codes.js';
import { describeMockContract } from './mock-contract.js';

describeMockContract('msw');

describe('coverage of the contract tests', () => {
  it('exercises every code of the table, on both variants', () => {
    for (const variant of [1, 2] as const) {
      const codes = new Set(endpointsOf(variant).flatMap(errorCodesOf));
      expect([...codes].sort()).toEqual(Object.keys(ERROR_CODES).sort());
    }
  });
});
