import { describe, expect, it } from 'vitest';
import { codeImpliedByStatus, generalCodesOfStatus } from '../../../src/contract/error-codes.js';
import { specStatusOf } from '../../helpers/spec-codes.js';
import { ERROR_CODES, statusOfCode, type ErrorCode } from '../../../src/contract/error-codes.js';

describe('the error code table', () => {
  it('gives every code the status of the spec table (section 7), per variant', () => {
    for (const variant of [1, 2] as const) {
      for (const code of Object.keys(ERROR_CODES) as ErrorCode[])
        expect([code, statusOfCode(code, variant)]).toEqual([code, specStatusOf(variant, code)]);
    }
  });

  it('reads a body-less status as a code only where the status stands for one code in every variant using it', () => {
    const implied = Object.fromEntries(
      [400, 401, 403, 404, 413, 422, 429, 500, 502, 503].map((status) => [status, codeImpliedByStatus(status)]),
    );
    expect(implied).toEqual({
      400: undefined,
      401: 'AUTHENTICATION_ERROR',
      403: undefined,
      404: 'RESOURCE_NOT_FOUND',
      413: undefined,
      422: 'VALIDATION_ERROR',
      429: 'RATE_LIMIT_EXCEEDED',
      500: 'INTERNAL_ERROR',
      502: 'MESSAGING_ERROR',
      503: undefined,
    });
  });

  it('names the general codes of a status, special cases left out', () => {
    expect(generalCodesOfStatus(400, 1)).toEqual(['VALIDATION_ERROR']);
    expect(generalCodesOfStatus(400, 2)).toEqual([]);
    expect(generalCodesOfStatus(401, 2)).toEqual(['AUTHENTICATION_ERROR']);
    expect(generalCodesOfStatus(403, 1)).toEqual(['INSUFFICIENT_PERMISSIONS', 'PLAN_LIMIT_EXCEEDED']);
    expect(generalCodesOfStatus(413, 1)).toEqual([]);
  });
});
