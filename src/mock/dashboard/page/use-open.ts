// Which rows of a long list are opened to show their detail (a request's exchange, an attempt's).
import { useState } from 'preact/hooks';

/** The ids of the rows opened, and the function that opens or closes one. */
export function useOpenRows(): { open: ReadonlySet<number>; toggle: (id: number) => void } {
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggle = (id: number) =>
    setOpen((ids) => {
      const next = new Set(ids);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return { open, toggle };
}
