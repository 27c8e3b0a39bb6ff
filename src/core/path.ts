import { InvalidArgumentError } from './errors.js';

/**
 * Builds a request path, URL-encoding every interpolated id so that an id such as `../x`
 * or `a?b` stays one path segment: `pathOf\`contacts/${id}\``.
 */
export function pathOf(strings: TemplateStringsArray, ...ids: Array<string | number>): string {
  let path = strings[0]!;
  ids.forEach((id, index) => {
    path += encodeId(id) + strings[index + 1]!;
  });
  return path;
}

function encodeId(id: unknown): string {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id);
  if (typeof id !== 'string' || id === '') {
    throw new InvalidArgumentError(`An id must be a non-empty string or a non-negative integer, got ${describe(id)}.`);
  }
  // URL parsers resolve "." and ".." segments (even percent-encoded), so they cannot be ids.
  if (id === '.' || id === '..') throw new InvalidArgumentError(`"${id}" is not a valid id.`);
  return encodeURIComponent(id);
}

function describe(value: unknown): string {
  if (typeof value === 'string') return 'an empty string';
  return typeof value === 'number' ? String(value) : typeof value;
}
