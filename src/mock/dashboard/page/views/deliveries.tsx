// Every delivery attempt, newest first: its event, endpoint, status, duration and next retry, what
// was signed and sent and what the endpoint answered, and a button to redeliver it now.
import type { DeliveryAttempt } from '../../../state/records.js';
import { control, queryOf } from '../api.js';
import { fromNow, timeOf } from '../format.js';
import { usePaged } from '../use-paged.js';
import { useOpenRows } from '../use-open.js';
import { virtualNow, type MockView } from '../use-mock.js';
import { Cut } from './bounded.js';
import { Exchange } from './exchange.js';

/** The delivery attempts. */
export function Deliveries({ mock }: { mock: MockView }) {
  const paged = usePaged<DeliveryAttempt>((page) => `/deliveries${queryOf(page)}`, String(mock.epoch), mock.tick);
  const { open, toggle } = useOpenRows();
  const now = virtualNow(mock);
  const retries = byRetryKey(paged.items);
  return (
    <section aria-labelledby="deliveries-title">
      <h3 id="deliveries-title">Delivery attempts</h3>
      {paged.loading ? <p class="loading">Reading the attempts…</p> : null}
      {!paged.loading && paged.items.length === 0 ? <p>No delivery attempt yet.</p> : null}
      <ol class="rows" aria-label="Delivery attempts, newest first">
        {[...paged.items].reverse().map((attempt) => (
          <li key={attempt.id} class={attempt.ok ? 'row ok' : 'row failed'}>
            <div class="row-line">
              <button
                type="button"
                class="disclose"
                aria-expanded={open.has(attempt.id)}
                onClick={() => toggle(attempt.id)}
              >
                <span id={`attempt-${attempt.id}`}>
                  <Cut text={summaryOf(attempt, now, retries)} lines={2} />
                </span>
              </button>
              <button
                type="button"
                aria-describedby={`attempt-${attempt.id}`}
                disabled={mock.busy}
                onClick={() => void mock.act(() => control('POST', `/deliveries/${attempt.id}/redeliver`))}
              >
                Redeliver
              </button>
            </div>
            {open.has(attempt.id) ? <AttemptDetail attempt={attempt} /> : null}
          </li>
        ))}
      </ol>
      {paged.more ? (
        <button type="button" class="link" onClick={() => void paged.loadOlder()}>
          Show older attempts
        </button>
      ) : null}
    </section>
  );
}

/** The attempts read, each under the key of the retry it would be (`retryKey`), to name a failed attempt's retry. */
function byRetryKey(attempts: readonly DeliveryAttempt[]): Map<string, DeliveryAttempt> {
  const keyed = new Map<string, DeliveryAttempt>();
  for (const attempt of attempts)
    if (attempt.redeliveryOf === null && attempt.attempt > 1) keyed.set(retryKey(attempt, attempt.attempt), attempt);
  return keyed;
}

/** A retry sends the same signed body to the same endpoint, one attempt later. */
function retryKey(attempt: DeliveryAttempt, number: number): string {
  return `${attempt.endpointId} ${number} ${attempt.request.body}`;
}

function summaryOf(attempt: DeliveryAttempt, now: number, retries: Map<string, DeliveryAttempt>): string {
  const which = attempt.redeliveryOf === null ? `attempt ${attempt.attempt}` : `redelivery of #${attempt.redeliveryOf}`;
  const retried = attempt.nextRetryAt === null ? undefined : retries.get(retryKey(attempt, attempt.attempt + 1));
  const retry =
    attempt.nextRetryAt === null
      ? ''
      : retried !== undefined
        ? ` · retried as #${retried.id}`
        : ` · next retry ${timeOf(attempt.nextRetryAt, now)} (${fromNow(attempt.nextRetryAt - now)})`;
  return `#${attempt.id} ${timeOf(attempt.at, now)} ${attempt.event} → ${attempt.url} · ${String(attempt.status)} · ${which} · ${Math.round(attempt.durationMs)} ms${retry}`;
}

function AttemptDetail({ attempt }: { attempt: DeliveryAttempt }) {
  const answer = attempt.response;
  return (
    <Exchange
      sides={[
        { title: `Signed request: POST ${attempt.url}`, headers: attempt.request.headers, body: attempt.request.body },
        answer === null
          ? { title: `No answer: ${attempt.error ?? String(attempt.status)}`, headers: undefined, body: null }
          : { title: `Answer: ${answer.status}`, headers: answer.headers, body: answer.body },
      ]}
    />
  );
}
