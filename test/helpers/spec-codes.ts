/**
 * The status the spec's error table (section 7) gives each code, per variant: restated here, not
 * imported from src, so that the tests check the implementation against the spec.
 */
const VARIANT1_STATUS: Readonly<Record<string, number>> = {
  VALIDATION_ERROR: 400,
  INVALID_PHONE: 400,
  TEMPLATE_NOT_FOUND: 400,
  AUTHENTICATION_ERROR: 401,
  KEY_REVOKED: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  PLAN_LIMIT_EXCEEDED: 403,
  RESOURCE_NOT_FOUND: 404,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  MESSAGING_ERROR: 502,
};
const STATUS_OF_CODE: Record<1 | 2, Readonly<Record<string, number>>> = {
  1: VARIANT1_STATUS,
  // The one difference: Variant 2 answers a validation error with 422.
  2: { ...VARIANT1_STATUS, VALIDATION_ERROR: 422 },
};

/** Codes the mock adds where HTTP forces a status the table lacks (docs/decisions.md). */
const EXTRA_CODES: Readonly<Record<string, number>> = { PAYLOAD_TOO_LARGE: 413 };

/** The status a code must come with on `variant`, or undefined for a code the mock never sends. */
export function specStatusOf(variant: 1 | 2, code: string): number | undefined {
  if (Object.hasOwn(STATUS_OF_CODE[variant], code)) return STATUS_OF_CODE[variant][code];
  return Object.hasOwn(EXTRA_CODES, code) ? EXTRA_CODES[code] : undefined;
}
