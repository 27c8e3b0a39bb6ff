// Checking what a request carries: bodies against their schemas, phone numbers, pages, enums.
import type { ZodMiniType } from 'zod/mini';
import { PAGE_SIZE } from '../../contract/limits.js';
import type { ListMeta } from '../../schemas/common.js';
import { fieldProblems } from '../../shared/describe.js';
import { PHONE_PATTERN, PHONE_PATTERN_TEXT } from '../../shared/phone-pattern.js';
import { MockHttpError } from '../wire/http-error.js';

/** A VALIDATION_ERROR with `details` mapping each field to its messages. */
export function validationError(details: Record<string, string[]>): MockHttpError {
  const fields = Object.keys(details).join(', ');
  return new MockHttpError('VALIDATION_ERROR', `Invalid request parameters: ${fields}.`, details);
}

/** `value` parsed by `schema`, or a VALIDATION_ERROR naming each bad field. */
export function parseWith<T>(schema: ZodMiniType<T>, value: unknown): T {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw validationError(fieldProblems(result.error.issues));
}

/** INVALID_PHONE unless `phone` is an international number as the service takes it (`PHONE_PATTERN`). */
export function checkPhone(phone: string, field: string): void {
  if (!PHONE_PATTERN.test(phone)) {
    throw new MockHttpError('INVALID_PHONE', `${field} must be an international number: ${PHONE_PATTERN_TEXT}.`, {
      [field]: ['is not a valid phone number'],
    });
  }
}

/** `page` and `per_page` of a query, validated. */
export function readPagination(query: URLSearchParams): { page: number; perPage: number } {
  const page = readPositiveInt(query, 'page', 1, Number.MAX_SAFE_INTEGER);
  const perPage = readPositiveInt(query, 'per_page', PAGE_SIZE.default, PAGE_SIZE.max);
  return { page, perPage };
}

function readPositiveInt(query: URLSearchParams, name: string, fallback: number, max: number): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw validationError({ [name]: [`must be an integer from 1 to ${max}`] });
  }
  return Number(raw);
}

/** One page of `items` and its exact `meta`; the cost is the page's, not the list's. */
export function pageOf<T>(items: readonly T[], page: number, perPage: number): { data: T[]; meta: ListMeta } {
  const start = (page - 1) * perPage;
  return {
    data: items.slice(start, start + perPage),
    meta: {
      current_page: page,
      per_page: perPage,
      total: items.length,
      last_page: Math.max(1, Math.ceil(items.length / perPage)),
    },
  };
}

/** A query parameter that must be one of `values`, if present. */
export function readEnum<T extends string>(query: URLSearchParams, name: string, values: readonly T[]): T | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  if (!(values as readonly string[]).includes(raw))
    throw validationError({ [name]: [`must be one of ${values.join(', ')}`] });
  return raw as T;
}
