// The records the page reads of the mock made inert: every string in them, keys included, through
// `printable` (line feeds and tabs kept), before any view shows it.
import { printable } from '../../../shared/printable.js';

/** `value` with every string in it, keys included, `printable` (lines kept): the records as the page shows them. */
export function inert<T>(value: T): T {
  if (typeof value === 'string') return printable(value, { lines: true }) as T;
  if (Array.isArray(value)) return value.map(inert) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [printable(key, { lines: true }), inert(item)]),
  ) as T;
}
