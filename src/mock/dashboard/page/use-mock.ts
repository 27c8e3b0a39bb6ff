// The mock as the page knows it: its health, its state (without the delivery attempts, read apart a
// page at a time), its faults, and a tick that moves on with each batch of live activity.
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { MockHealth } from '../../operations.js';
import type { TrafficHealth } from '../../traffic/control.js';
import type { InjectedFault } from '../../rules/faults.js';
import type { MockSnapshot } from '../../service.js';
import type { StreamActivity } from '../../control/stream.js';
import { control, ControlError } from './api.js';
import { followActivity, type LiveStatus } from './live.js';
import { useReload } from './use-reload.js';
import type { PageMode } from './route.js';

/** What the stream names a reset (`MockService.reset()`'s change). */
const RESET = 'the mock was reset';

/** What every view gets. */
export interface MockView {
  readonly health: MockHealth | TrafficHealth | undefined;
  /** What the page shows, once health said it: the mock, a proxy or a replay. */
  readonly mode: PageMode | undefined;
  readonly snapshot: MockSnapshot | undefined;
  readonly faults: readonly InjectedFault[];
  /** `performance.now()` when the snapshot arrived: the virtual clock runs on from its `now`. */
  readonly readAt: number;
  /** Moves on with each batch of activity the stream reports (and each action): views read again. */
  readonly tick: number;
  /**
   * Moves on when what was read before may be gone: the stream (re)connected, or the mock was reset
   * (delivery ids start again): views that read only what is new read everything again.
   */
  readonly epoch: number;
  readonly status: LiveStatus;
  /** Why the last action or read failed, for the page's alert; undefined once one succeeds. */
  readonly error: string | undefined;
  /** Whether an action is under way: its buttons wait (a second click would act twice). */
  readonly busy: boolean;
  /** Runs an action on the mock; its refusal shows in the alert. Resolves with whether it succeeded. */
  act(run: () => Promise<unknown>): Promise<boolean>;
}

/** The mock, followed live. */
export function useMock(): MockView {
  const [tick, setTick] = useState(0);
  const [epoch, setEpoch] = useState(0);
  const [status, setStatus] = useState<LiveStatus>('connecting');
  const [actionError, setActionError] = useState<string | undefined>();
  const [running, setRunning] = useState(0);
  const bump = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => {
    const event = (name: string, data: string) => {
      if (name === 'ready' || (JSON.parse(data) as StreamActivity).what.includes(RESET)) setEpoch((n) => n + 1);
      bump();
    };
    return followActivity({ event, status: setStatus });
  }, [bump]);
  // An action that failed while the mock was away says nothing once it is back.
  useEffect(() => {
    if (status === 'live') setActionError(undefined);
  }, [status]);
  const health = useReload(() => control<MockHealth | TrafficHealth>('GET', '/health'), [status === 'live']);
  const mode = health.value === undefined ? undefined : 'mode' in health.value ? health.value.mode : 'mock';
  // A proxy or replay has no state: only the mock's is read.
  const state = useReload(async () => {
    if (mode !== 'mock') return undefined;
    const snapshot = await control<MockSnapshot>('GET', '/state?deliveries=0');
    return { snapshot, readAt: performance.now() };
  }, [tick, mode]);
  const faults = useReload(
    () => (mode === 'mock' ? control<InjectedFault[]>('GET', '/faults') : Promise.resolve([])),
    [tick, mode],
  );
  const act = useCallback(
    async (run: () => Promise<unknown>) => {
      setRunning((n) => n + 1);
      try {
        await run();
        setActionError(undefined);
        return true;
      } catch (error) {
        setActionError(error instanceof ControlError ? error.message : String(error));
        return false;
      } finally {
        setRunning((n) => n - 1);
        bump();
      }
    },
    [bump],
  );
  return {
    health: health.value,
    mode,
    snapshot: state.value?.snapshot,
    faults: faults.value ?? [],
    readAt: state.value?.readAt ?? 0,
    tick,
    epoch,
    status,
    error: actionError ?? state.error ?? health.error,
    busy: running > 0,
    act,
  };
}

/** The virtual time now, in ms: the snapshot's, run on since it was read. */
export function virtualNow(mock: MockView): number {
  return mock.snapshot === undefined ? Date.now() : Date.parse(mock.snapshot.now) + performance.now() - mock.readAt;
}
