// Faults: inject a status, a delay or a network error on a route of the service, list the faults
// still in force, and clear them.
import { useState } from 'preact/hooks';
import { control } from '../api.js';
import type { MockView } from '../use-mock.js';
import { Cut, Wide } from './bounded.js';

type Kind = 'status' | 'delay' | 'networkError';

/** The faults view. */
export function FaultsView({ mock }: { mock: MockView }) {
  const [route, setRoute] = useState('');
  const [kind, setKind] = useState<Kind>('status');
  const [status, setStatus] = useState('503');
  // 503, the usual fault, has no code in the spec: one of ours, which a client must handle as unknown.
  const [code, setCode] = useState('SERVICE_UNAVAILABLE');
  const [delay, setDelay] = useState('1000');
  const [times, setTimes] = useState('1');
  const inject = () =>
    mock.act(() =>
      control('POST', '/faults', {
        ...(route.trim() === '' ? {} : { route: route.trim() }),
        ...(kind === 'status'
          ? { status: Number(status), ...(code.trim() === '' ? {} : { code: code.trim() }) }
          : kind === 'delay'
            ? { delay: Number(delay) }
            : { networkError: true }),
        // Empty: once, the mock's default.
        ...(times.trim() === '' ? {} : { times: Number(times) }),
      }),
    );
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Faults
      </h2>
      <form
        class="fault-form"
        aria-label="Inject a fault"
        onSubmit={(event) => {
          event.preventDefault();
          void inject();
        }}
      >
        <p>
          <label for="fault-route">Route</label>
          <input
            id="fault-route"
            value={route}
            size={38}
            placeholder="POST /messages/send (empty: every route)"
            onInput={(e) => setRoute(e.currentTarget.value)}
          />
        </p>
        <fieldset>
          <legend>Fault</legend>
          <label>
            <input type="radio" name="fault-kind" checked={kind === 'status'} onChange={() => setKind('status')} />{' '}
            Status
          </label>
          <label>
            <input type="radio" name="fault-kind" checked={kind === 'delay'} onChange={() => setKind('delay')} /> Delay
          </label>
          <label>
            <input
              type="radio"
              name="fault-kind"
              checked={kind === 'networkError'}
              onChange={() => setKind('networkError')}
            />{' '}
            Network error
          </label>
        </fieldset>
        {kind === 'status' ? (
          <p>
            <label for="fault-status">Status code</label>
            <input
              id="fault-status"
              type="number"
              required
              min={100}
              max={599}
              value={status}
              onInput={(e) => setStatus(e.currentTarget.value)}
            />
          </p>
        ) : null}
        {kind === 'status' ? (
          <p>
            <label for="fault-code">Error code (empty: the spec's code for the status)</label>
            <input id="fault-code" value={code} onInput={(e) => setCode(e.currentTarget.value)} />
          </p>
        ) : null}
        {kind === 'delay' ? (
          <p>
            <label for="fault-delay">Delay (ms)</label>
            <input
              id="fault-delay"
              type="number"
              required
              min={0}
              value={delay}
              onInput={(e) => setDelay(e.currentTarget.value)}
            />
          </p>
        ) : null}
        <p>
          <label for="fault-times">Times</label>
          <input
            id="fault-times"
            type="number"
            min={1}
            value={times}
            onInput={(e) => setTimes(e.currentTarget.value)}
          />
        </p>
        <button type="submit">Inject fault</button>
      </form>
      <h3>In force</h3>
      {mock.faults.length === 0 ? (
        <p>No fault injected.</p>
      ) : (
        <Wide label="Faults in force table">
          <table>
            <thead>
              <tr>
                <th scope="col">Route</th>
                <th scope="col">Fault</th>
                <th scope="col">Remaining</th>
              </tr>
            </thead>
            <tbody>
              {mock.faults.map((fault, i) => (
                <tr key={i}>
                  <td>
                    <Cut text={fault.route ?? 'every route'} />
                  </td>
                  <td>
                    {[
                      fault.status === null
                        ? ''
                        : `status ${fault.status}${fault.code === null ? '' : ` ${fault.code}`}`,
                      fault.delay === null ? '' : `delay ${fault.delay} ms`,
                      fault.networkError ? 'network error' : '',
                      fault.rate === null ? '' : `rate ${fault.rate}`,
                    ]
                      .filter(Boolean)
                      .join(', ')}
                  </td>
                  <td>{fault.remaining ?? 'no end'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Wide>
      )}
      <button
        type="button"
        disabled={mock.faults.length === 0}
        onClick={() => void mock.act(() => control('DELETE', '/faults'))}
      >
        Clear faults
      </button>
    </section>
  );
}
