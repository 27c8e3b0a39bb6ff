// Requests: the journal of what the app asked the service and what it answered, newest first,
// filtered by method, path (or template) and status (or class), each request opened for its bodies.
import { useState } from 'preact/hooks';
import type { RecordedRequest } from '../../../state/records.js';
import { queryOf } from '../api.js';
import { timeOf } from '../format.js';
import { usePaged } from '../use-paged.js';
import { useOpenRows } from '../use-open.js';
import { virtualNow, type MockView } from '../use-mock.js';
import { Cut } from './bounded.js';
import { Exchange } from './exchange.js';

const METHODS = ['', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface Filter {
  readonly method: string;
  readonly path: string;
  readonly status: string;
}

/** The requests view. */
export function RequestsView({ mock }: { mock: MockView }) {
  const [typed, setTyped] = useState<Filter>({ method: '', path: '', status: '' });
  const [filter, setFilter] = useState<Filter>(typed);
  const paged = usePaged<RecordedRequest>(
    (page) => `/requests${queryOf({ ...filter, ...page })}`,
    `${mock.epoch} ${filter.method} ${filter.path} ${filter.status}`,
    mock.tick,
  );
  const { open, toggle } = useOpenRows();
  const now = virtualNow(mock);
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Requests
      </h2>
      <form
        class="filters"
        aria-label="Filter requests"
        onSubmit={(event) => {
          event.preventDefault();
          setFilter(typed);
        }}
      >
        <p>
          <label for="filter-method">Method</label>
          <select
            id="filter-method"
            value={typed.method}
            onChange={(e) => setTyped({ ...typed, method: e.currentTarget.value })}
          >
            {METHODS.map((method) => (
              <option key={method} value={method}>
                {method === '' ? 'any' : method}
              </option>
            ))}
          </select>
        </p>
        <p>
          <label for="filter-path">Path</label>
          <input
            id="filter-path"
            value={typed.path}
            placeholder="/contacts/{id}"
            onInput={(e) => setTyped({ ...typed, path: e.currentTarget.value })}
          />
        </p>
        <p>
          <label for="filter-status">Status</label>
          <input
            id="filter-status"
            value={typed.status}
            placeholder="404 or 4xx"
            size={8}
            onInput={(e) => setTyped({ ...typed, status: e.currentTarget.value })}
          />
        </p>
        <button type="submit">Filter</button>
      </form>
      {paged.error === undefined ? null : <p class="error">{paged.error}</p>}
      <p class="count">
        {paged.loading
          ? 'Reading the journal…'
          : `${paged.items.length} ${paged.items.length === 1 ? 'request' : 'requests'} shown, newest first`}
      </p>
      <ol class="rows" aria-label="Requests, newest first">
        {[...paged.items].reverse().map((entry) => (
          <li key={entry.id} class={entry.status >= 400 || entry.status === 0 ? 'row failed' : 'row ok'}>
            <button type="button" class="disclose" aria-expanded={open.has(entry.id)} onClick={() => toggle(entry.id)}>
              <Cut text={summaryOf(entry, now)} lines={2} />
            </button>
            {open.has(entry.id) ? <RequestDetail entry={entry} /> : null}
          </li>
        ))}
      </ol>
      {paged.more ? (
        <button type="button" class="link" onClick={() => void paged.loadOlder()}>
          Show older requests
        </button>
      ) : null}
    </section>
  );
}

function summaryOf(entry: RecordedRequest, now: number): string {
  const status = entry.status === 0 ? 'network error (injected)' : String(entry.status);
  const code = entry.code === null ? '' : ` ${entry.code}`;
  return `#${entry.id} ${timeOf(entry.at, now)} ${entry.method} ${entry.path ?? entry.url} → ${status}${code} · ${entry.durationMs} ms`;
}

function RequestDetail({ entry }: { entry: RecordedRequest }) {
  const query =
    Object.keys(entry.query).length === 0
      ? ''
      : ` ?${new URLSearchParams(entry.query as Record<string, string>).toString()}`;
  return (
    <Exchange
      sides={[
        {
          title: `Request: ${entry.method} ${entry.path === null ? entry.url : `${entry.path}${query}`}`,
          headers: entry.headers,
          body: entry.body,
        },
        entry.response === null
          ? { title: 'No answer: the connection was cut (injected network error)', headers: undefined, body: null }
          : { title: `Answer: ${entry.status}`, headers: entry.response.headers, body: entry.response.body },
      ]}
    />
  );
}
