// A value the page reads from the mock and reads again when its inputs change (a filter, the tick of
// the live stream): one read in flight at a time, and one more after it when asked meanwhile.
import { useEffect, useRef, useState } from 'preact/hooks';

/** What a read gave last: its value (kept through a failed read) and the failure, if the last one failed. */
export interface Loaded<T> {
  readonly value: T | undefined;
  readonly error: string | undefined;
}

/** Reads `load()` now and whenever `inputs` change; a burst of changes costs at most two reads. */
export function useReload<T>(load: () => Promise<T>, inputs: readonly unknown[]): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ value: undefined, error: undefined });
  const flight = useRef({ running: false, again: false, load, live: true });
  flight.current.load = load;
  useEffect(() => () => void (flight.current.live = false), []);
  useEffect(() => {
    const current = flight.current;
    if (current.running) {
      current.again = true;
      return;
    }
    void (async () => {
      current.running = true;
      do {
        current.again = false;
        try {
          const value = await current.load();
          if (current.live) setLoaded({ value, error: undefined });
        } catch (error) {
          if (current.live) setLoaded((last) => ({ value: last.value, error: (error as Error).message }));
        }
      } while (current.again && current.live);
      current.running = false;
    })();
    // The inputs are the caller's: what the read depends on.
  }, inputs);
  return loaded;
}
