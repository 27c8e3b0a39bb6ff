// A page of records by id: those after one id and before another, `limit` of them. How the journal
// and the delivery attempts are read a page at a time (the dashboard reads 10,000 so).

/** Which records of an id-ordered list to read. */
export interface IdPage {
  /** Only records after this id: what came since the last read. */
  after?: number | undefined;
  /** Only records before this id: the page older than one already read. */
  before?: number | undefined;
  /** At most this many: the first after `after` when only `after` is given (to page forward), else the newest. */
  limit?: number | undefined;
}

/** The records of `items` (oldest first, ids rising) that `page` picks, oldest first. */
export function pageById<T extends { readonly id: number }>(items: readonly T[], page: IdPage): T[] {
  const { after, before, limit } = page;
  const picked = items.filter(
    (item) => (after === undefined || item.id > after) && (before === undefined || item.id < before),
  );
  if (limit === undefined) return picked;
  // Reading on from `after` goes forward, as a cursor does; anything else reads back from the newest.
  return after !== undefined && before === undefined
    ? picked.slice(0, limit)
    : picked.slice(picked.length - Math.min(limit, picked.length));
}
