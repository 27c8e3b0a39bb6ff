// Waiting until a message reaches a status: on the store's own news, never by polling.
import { MessageFailedError, StatusTimeoutError } from './errors.js';
import { reached, type StatusGoal, type StatusRecord } from './record.js';
import type { StatusStore } from './store.js';

/**
 * Resolves with the record of `id` once it reaches `goal`; rejects with `MessageFailedError`
 * when it fails first, `StatusTimeoutError` after `timeout` ms, the signal's reason on abort, or
 * the store's error. It listens before it reads, so a change between the two is not missed, and
 * reads once more when time runs out, in case a notification was lost with a connection.
 */
export function waitForStatus(
  store: StatusStore,
  id: string,
  goal: StatusGoal,
  timeout: number,
  signal: AbortSignal | undefined,
): Promise<StatusRecord> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let stop: (() => void) | undefined;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stop?.();
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const fail = (error: unknown) => finish(() => reject(error));
    const consider = (record: StatusRecord | undefined) => {
      if (record === undefined) return;
      if (reached(record, goal)) finish(() => resolve(record));
      else if (record.status === 'failed') fail(new MessageFailedError(record, goal));
    };
    const onAbort = () => fail(signal?.reason);
    const timer = setTimeout(() => {
      store.get(id).then((record) => {
        consider(record);
        fail(new StatusTimeoutError(id, goal, timeout, record));
      }, fail);
    }, timeout);
    if (signal?.aborted === true) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    store
      .watch(id, consider)
      .then((unwatch) => {
        if (settled) return unwatch();
        stop = unwatch;
        return store.get(id).then(consider);
      })
      .catch(fail);
  });
}
