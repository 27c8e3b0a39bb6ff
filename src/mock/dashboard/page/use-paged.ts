// A long list read a page at a time (the request journal, the delivery attempts): the newest page
// first, then only what is new with each tick of the live stream, and older pages on demand.
import { useRef, useState } from 'preact/hooks';
import { control } from './api.js';
import { useReload } from './use-reload.js';

/** How many records one read asks for. */
export const PAGE = 100;
/** How many the list keeps at most: a busy mock must not make the page slower and slower. */
const KEPT = 500;

/** Which records one read asks for. */
export type PageQuery = { after?: number; before?: number; limit: number };

/** The list as shown: oldest first. */
export interface Paged<T> {
  readonly items: readonly T[];
  /** Whether older records may be there to read. */
  readonly more: boolean;
  readonly error: string | undefined;
  readonly loading: boolean;
  loadOlder(): Promise<void>;
}

interface List<T> {
  readonly key: string;
  readonly items: T[];
  readonly more: boolean;
}

/**
 * The records `url(page)` answers: all read again when `key` changes (a filter, a reset), what came
 * after the newest on each `tick`.
 */
export function usePaged<T extends { id: number }>(
  url: (page: PageQuery) => string,
  key: string,
  tick: number,
): Paged<T> {
  const list = useRef<List<T>>({ key: '', items: [], more: false });
  const [, rerender] = useState(0);
  const loaded = useReload(async () => {
    const current = list.current;
    const newest = current.key === key ? current.items.at(-1)?.id : undefined;
    const since = newest === undefined ? undefined : await control<T[]>('GET', url({ after: newest, limit: PAGE }));
    // A full page after the newest may have more behind it: then the list starts again from the newest page.
    if (since === undefined || since.length === PAGE) {
      const fresh = await control<T[]>('GET', url({ limit: PAGE }));
      list.current = { key, items: fresh, more: fresh.length === PAGE };
    } else list.current = kept({ key, items: [...current.items, ...since], more: current.more });
    return list.current;
  }, [key, tick]);
  const loadOlder = async () => {
    const current = list.current;
    const oldest = current.items[0]?.id;
    if (oldest === undefined) return;
    const page = await control<T[]>('GET', url({ before: oldest, limit: PAGE }));
    list.current = { key: current.key, items: [...page, ...current.items], more: page.length === PAGE };
    rerender((n) => n + 1);
  };
  const current = list.current.key === key ? list.current : undefined;
  return {
    items: current?.items ?? [],
    more: current?.more ?? false,
    error: loaded.error,
    loading: current === undefined,
    loadOlder,
  };
}

function kept<T>(list: List<T>): List<T> {
  return list.items.length <= KEPT ? list : { ...list, items: list.items.slice(-KEPT), more: true };
}
