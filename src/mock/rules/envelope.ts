// How each variant wraps the mock's bodies: success, list and error envelopes.
import type { Variant } from '../../contract/variant.js';
import type { ListMeta } from '../../schemas/common.js';
import type { MockHttpError } from '../wire/http-error.js';

/** How a variant wraps bodies: the success and list envelope, and an error answer's status and envelope. */
export interface MockEnvelope {
  success(data: unknown, meta?: ListMeta): unknown;
  error(error: MockHttpError): { status: number; body: unknown };
}

const variant1: MockEnvelope = {
  success: (data, meta) => (meta === undefined ? { success: true, data } : { success: true, data, meta }),
  error: (error) => ({ status: error.statusIn(1), body: { success: false, error: errorObject(error) } }),
};

const variant2: MockEnvelope = {
  success: (data, meta) => (meta === undefined ? { data } : { data, meta }),
  error: (error) => ({ status: error.statusIn(2), body: { error: errorObject(error) } }),
};

function errorObject({ code, message, details }: MockHttpError) {
  return { code, message, details };
}

/** The envelope of a variant. */
export function envelopeOf(variant: Variant): MockEnvelope {
  return variant === 1 ? variant1 : variant2;
}
