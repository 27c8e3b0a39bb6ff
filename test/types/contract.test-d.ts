import { describe, expectTypeOf, it } from 'vitest';
import type { ErrorCode, SpecErrorCode } from '../../src/contract/error-codes.js';
import { type errorClassByCode } from '../../src/core/errors/classes.js';
import type { FaultSpec } from '../../src/mock/index.js';
import { MockHttpError } from '../../src/mock/wire/http-error.js';

describe('error codes are checked against the table at compile time', () => {
  it('lets the mock throw only codes of the table, each with the status the table gives it', () => {
    new MockHttpError('RESOURCE_NOT_FOUND', 'gone');
    // @ts-expect-error not a code of the table
    new MockHttpError('NOT_FOUND', 'gone');
    // @ts-expect-error the status comes from the code, never from the throw site
    new MockHttpError(404, 'RESOURCE_NOT_FOUND', 'gone');
  });

  it('has an error class for every code of the spec and for nothing else', () => {
    expectTypeOf<keyof typeof errorClassByCode>().toEqualTypeOf<SpecErrorCode>();
    expectTypeOf<Exclude<ErrorCode, SpecErrorCode>>().toEqualTypeOf<'PAYLOAD_TOO_LARGE'>();
  });

  it("keeps an injected fault's code open: a code the spec lacks tests a client's handling of new codes", () => {
    expectTypeOf<'SERVICE_UNAVAILABLE'>().toExtend<NonNullable<FaultSpec['code']>>();
    expectTypeOf<ErrorCode>().toExtend<NonNullable<FaultSpec['code']>>();
  });
});
