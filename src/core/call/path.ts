// The path of a call: route templates filled with encoded ids, and the path as messages show it.
import { describeValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { redactText } from '../errors/redact.js';

/**
 * The request path of a route such as `contacts/{id}`: each `{id}` is filled, in order, with
 * an id URL-encoded as one path segment, so that an id such as `../x` or `a?b` cannot
 * reach another endpoint.
 */
export function fillRoute(route: string, ids: readonly unknown[] | undefined): string {
  if (ids === undefined) return route;
  // indexOf rather than a replace with a callback: this runs on every request.
  let path = '';
  let from = 0;
  for (let at = route.indexOf(ID), next = 0; at !== -1; at = route.indexOf(ID, from)) {
    path += route.slice(from, at) + encodeId(ids[next++]);
    from = at + ID.length;
  }
  return path + route.slice(from);
}

const ID = '{id}';

function encodeId(id: unknown): string {
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) return String(id);
  if (typeof id !== 'string' || id === '') {
    const got = typeof id === 'string' ? 'an empty string' : typeof id === 'number' ? String(id) : describeValue(id);
    throw new InvalidArgumentError(`An id must be a non-empty string or a non-negative integer, got ${got}.`);
  }
  // URL parsers resolve "." and ".." segments (even percent-encoded), so they cannot be ids.
  if (id === '.' || id === '..') throw new InvalidArgumentError(`"${id}" is not a valid id.`);
  try {
    return encodeURIComponent(id);
  } catch {
    throw new InvalidArgumentError('An id must be well-formed text; this one holds a lone UTF-16 surrogate.');
  }
}

/** How much of a path messages and log lines show: an id of any length must not make them huge. */
const SHOWN_PATH_CHARS = 200;

/** The path as messages, log lines and spans show it: without the key, and cut short. */
export function showPath(path: string, apiKey: string): string {
  const shown = redactText(path, apiKey);
  return shown.length > SHOWN_PATH_CHARS ? `${shown.slice(0, SHOWN_PATH_CHARS)}…` : shown;
}
