// A page of records by id: those after one id and before another, the newest `limit` of them. How
// the journal and the delivery attempts are read a page at a time (the dashboard reads 10,000 so).

/** Which records of an id-ordered list to read. */
export interface IdPage {
  /** Only records after this id: what came since the last read. */
  after?: number;
  /** Only records before this id: the page older than one already read. */
  before?: number;
  /** At most this many, the newest. */
  limit?: number;
}

/** The records of `items` (oldest first, ids rising) that `page` picks, oldest first. */
export function pageById<T extends { readonly id: number }>(items: readonly T[], page: IdPage): T[] {
  const { after, before, limit } = page;
  const picked = items.filter(
    (item) => (after === undefined || item.id > after) && (before === undefined || item.id < before),
  );
  return limit === undefined ? picked : picked.slice(picked.length - Math.min(limit, picked.length));
}
