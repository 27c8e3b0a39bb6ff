import { describe, expect, it } from 'vitest';
import {
  CODE_IMPLIED_BY_STATUS,
  ERROR_CODES,
  generalCodesOfStatus,
  statusOfCode,
  type ErrorCode,
} from '../../../src/contract/error-codes.js';
import { specStatusOf } from '../../helpers/spec-codes.js';

/**
 * The code a status implies, read from the table: the one general code of the status, the same in
 * every variant with a code at that status; else none. What `CODE_IMPLIED_BY_STATUS` must say.
 */
function impliedByTable(status: number): ErrorCode | undefined {
  let implied: ErrorCode | undefined;
  for (const variant of [1, 2] as const) {
    if (!Object.values(ERROR_CODES).some((info) => info.status[variant] === status)) continue;
    const general = generalCodesOfStatus(status, variant);
    if (general.length !== 1 || (implied !== undefined && implied !== general[0])) return undefined;
    implied = general[0];
  }
  return implied;
}

describe('the error code table', () => {
  it('gives every code the status of the spec table (section 7), per variant', () => {
    for (const variant of [1, 2] as const) {
      for (const code of Object.keys(ERROR_CODES) as ErrorCode[])
        expect([code, statusOfCode(code, variant)]).toEqual([code, specStatusOf(variant, code)]);
    }
  });

  it('reads a body-less status as a code only where the status stands for one code in every variant using it', () => {
    const implied = Object.fromEntries(
      [400, 401, 403, 404, 413, 422, 429, 500, 502, 503].map((status) => [status, CODE_IMPLIED_BY_STATUS[status]]),
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

  it('writes out exactly the codes the table implies (the clients carry the map, not the table)', () => {
    const statuses = new Set(Object.values(ERROR_CODES).flatMap((info) => Object.values(info.status)));
    const derived = Object.fromEntries(
      [...statuses].flatMap((status) => {
        const code = impliedByTable(status);
        return code === undefined ? [] : [[String(status), code]];
      }),
    );
    expect(CODE_IMPLIED_BY_STATUS).toEqual(derived);
  });

  it('names the general codes of a status, special cases left out', () => {
    expect(generalCodesOfStatus(400, 1)).toEqual(['VALIDATION_ERROR']);
    expect(generalCodesOfStatus(400, 2)).toEqual([]);
    expect(generalCodesOfStatus(401, 2)).toEqual(['AUTHENTICATION_ERROR']);
    expect(generalCodesOfStatus(403, 1)).toEqual(['INSUFFICIENT_PERMISSIONS', 'PLAN_LIMIT_EXCEEDED']);
    expect(generalCodesOfStatus(413, 1)).toEqual([]);
  });
});
