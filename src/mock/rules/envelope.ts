import type { ListMeta } from '../../schemas/common.js';
import { statusOfCode } from '../../contract/error-codes.js';
import type { MockHttpError } from './http-error.js';
import type { MockVariant } from '../options.js';

/** How a variant wraps bodies: success, list and error envelopes, and its validation status. */
export interface MockEnvelope {
  readonly validationStatus: number;
  success(data: unknown, meta?: ListMeta): unknown;
  error(error: MockHttpError): unknown;
}

const variant1: MockEnvelope = {
  validationStatus: statusOfCode('VALIDATION_ERROR', 1),
  success: (data, meta) => (meta === undefined ? { success: true, data } : { success: true, data, meta }),
  error: ({ code, message, details }) => ({ success: false, error: { code, message, details } }),
};

const variant2: MockEnvelope = {
  validationStatus: statusOfCode('VALIDATION_ERROR', 2),
  success: (data, meta) => (meta === undefined ? { data } : { data, meta }),
  error: ({ code, message, details }) => ({ error: { code, message, details } }),
};

/** The envelope of a variant. */
export function envelopeOf(variant: MockVariant): MockEnvelope {
  return variant === 1 ? variant1 : variant2;
}
