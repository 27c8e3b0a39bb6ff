// Clock: the virtual time, how far it is ahead of real time, the work it will do next (status
// changes, retries, campaigns) and the buttons that advance it.
import { control } from '../api.js';
import { fromNow, timeOf } from '../format.js';
import { virtualNow, type MockView } from '../use-mock.js';
import { Cut, Wide } from './bounded.js';

const STEPS = [
  ['1 minute', 60_000],
  ['1 hour', 3_600_000],
  ['24 hours', 86_400_000],
] as const;

/** The clock view. */
export function ClockView({ mock }: { mock: MockView }) {
  const { pending } = mock.snapshot!;
  const now = virtualNow(mock);
  const ahead = now - Date.now();
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Clock
      </h2>
      <p class="clock-now">
        <time dateTime={new Date(now).toISOString()}>{timeOf(now)}</time> UTC
      </p>
      <p class="muted">{ahead < 1000 ? 'Real time.' : `${fromNow(ahead).replace('in ', '')} ahead of real time.`}</p>
      <p class="advance">
        {STEPS.map(([label, ms]) => (
          <button
            key={ms}
            type="button"
            disabled={mock.busy}
            onClick={() => void mock.act(() => control('POST', '/clock/advance', { ms }))}
          >
            Advance {label}
          </button>
        ))}
      </p>
      <h3>Pending work</h3>
      {pending.length === 0 ? (
        <p>Nothing is waiting for the clock.</p>
      ) : (
        <Wide label="Pending work table">
          <table>
            <thead>
              <tr>
                <th scope="col">Due</th>
                <th scope="col">When</th>
                <th scope="col">What</th>
              </tr>
            </thead>
            <tbody>
              {pending.map((task, i) => (
                <tr key={`${task.at} ${i}`}>
                  <td class="time">{timeOf(task.at, now)}</td>
                  <td>{fromNow(task.at - now)}</td>
                  <td>
                    <Cut text={task.what} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Wide>
      )}
    </section>
  );
}
