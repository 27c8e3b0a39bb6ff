// The search field of a table: what it matches is the table's (name, phone, tag...), case-insensitive.
import { useState } from 'preact/hooks';

/** A labelled search field, and whether a row's texts match what was typed. */
export function useSearch(label: string, id: string) {
  const [query, setQuery] = useState('');
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const field = (
    <p class="search">
      <label for={id}>{label}</label>
      <input id={id} type="search" value={query} onInput={(event) => setQuery(event.currentTarget.value)} />
    </p>
  );
  /** Whether every word typed is in one of `texts`. */
  const matches = (texts: readonly string[]) => {
    const haystack = texts.join('\n').toLowerCase();
    return words.every((word) => haystack.includes(word));
  };
  return { field, matches };
}
