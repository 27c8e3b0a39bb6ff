// Error codes and their HTTP status per variant (spec section 7, and bizmsg's 413).
import type { Variant } from './variant.js';

/** What the wire says of one error code. */
interface ErrorCodeInfo {
  /** The HTTP status it comes with, per variant. */
  readonly status: Readonly<Record<Variant, number>>;
  /** The code this one is a special case of, at the same status: a status stands for the code its special cases refine. */
  readonly refines?: string;
  /** Not in the spec's table: a code bizmsg added where HTTP forces a status the table lacks (docs/decisions.md). */
  readonly extension?: true;
}

/** Every error code and its status per variant: the spec's table (section 7) and bizmsg's one addition, 413. */
export const ERROR_CODES = {
  VALIDATION_ERROR: { status: { 1: 400, 2: 422 } },
  INVALID_PHONE: { status: { 1: 400, 2: 400 }, refines: 'VALIDATION_ERROR' },
  TEMPLATE_NOT_FOUND: { status: { 1: 400, 2: 400 }, refines: 'VALIDATION_ERROR' },
  AUTHENTICATION_ERROR: { status: { 1: 401, 2: 401 } },
  KEY_REVOKED: { status: { 1: 401, 2: 401 }, refines: 'AUTHENTICATION_ERROR' },
  INSUFFICIENT_PERMISSIONS: { status: { 1: 403, 2: 403 } },
  PLAN_LIMIT_EXCEEDED: { status: { 1: 403, 2: 403 } },
  RESOURCE_NOT_FOUND: { status: { 1: 404, 2: 404 } },
  PAYLOAD_TOO_LARGE: { status: { 1: 413, 2: 413 }, extension: true },
  RATE_LIMIT_EXCEEDED: { status: { 1: 429, 2: 429 } },
  INTERNAL_ERROR: { status: { 1: 500, 2: 500 } },
  MESSAGING_ERROR: { status: { 1: 502, 2: 502 } },
} as const satisfies Record<string, ErrorCodeInfo>;
/** One error code of the service: the spec's table and bizmsg's PAYLOAD_TOO_LARGE. */
export type ErrorCode = keyof typeof ERROR_CODES;
/** A code of the spec's table (section 7), the ones the clients have an error class for. */
export type SpecErrorCode = {
  [K in ErrorCode]: (typeof ERROR_CODES)[K] extends { extension: true } ? never : K;
}[ErrorCode];

const CODES = /* @__PURE__ */ Object.keys(ERROR_CODES) as ErrorCode[];

/** The status `code` comes with in `variant`. */
export function statusOfCode(code: ErrorCode, variant: Variant): number {
  return ERROR_CODES[code].status[variant];
}

/**
 * The codes of the spec's table that `status` stands for in `variant`, special cases left out:
 * 401 is AUTHENTICATION_ERROR (KEY_REVOKED refines it), 400 on Variant 1 is VALIDATION_ERROR, 403
 * is INSUFFICIENT_PERMISSIONS or PLAN_LIMIT_EXCEEDED, 400 on Variant 2 (only special cases) none.
 */
export function generalCodesOfStatus(status: number, variant: Variant): ErrorCode[] {
  const info = (code: ErrorCode): ErrorCodeInfo => ERROR_CODES[code];
  return CODES.filter(
    (code) => !info(code).extension && info(code).refines === undefined && info(code).status[variant] === status,
  );
}

/**
 * The code a body-less answer with a status (a proxy's page) implies to a client of either variant:
 * only where the status stands for one code, the same in every variant that uses it. 400 stands for
 * different codes in the two variants, 403 for two. Written out, so that a client carries these six
 * entries rather than the table; test/core/errors/error-codes.test.ts derives them from `ERROR_CODES`.
 */
export const CODE_IMPLIED_BY_STATUS: Readonly<Partial<Record<number, ErrorCode>>> = {
  401: 'AUTHENTICATION_ERROR',
  404: 'RESOURCE_NOT_FOUND',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMIT_EXCEEDED',
  500: 'INTERNAL_ERROR',
  502: 'MESSAGING_ERROR',
};
