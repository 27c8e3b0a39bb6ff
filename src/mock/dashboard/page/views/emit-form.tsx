// Emits a sample event of any kind (the control API's POST /_bizmsg/events) to one endpoint or to
// every endpoint subscribed to it, with optional data merged over the sample.
import { useState } from 'preact/hooks';
import type { StoredWebhookEndpoint } from '../../../state/records.js';
import { control } from '../api.js';
import type { MockView } from '../use-mock.js';
import { useReload } from '../use-reload.js';

/** The event kinds, as the control API's own document lists them. */
async function eventKinds(): Promise<string[]> {
  const document = await control<{
    components: { schemas: { EventEmit: { properties: { event: { enum: string[] } } } } };
  }>('GET', '/openapi.json');
  return document.components.schemas.EventEmit.properties.event.enum;
}

/** The data typed, as JSON; what the mock would refuse anyway is said here in its words. */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error('The data merged over the sample must be a JSON object, such as {"status": "read"}.');
  }
}

/** The form. */
export function EmitForm({ mock, endpoints }: { mock: MockView; endpoints: readonly StoredWebhookEndpoint[] }) {
  const kinds = useReload(eventKinds, []);
  const [event, setEvent] = useState('message.delivered');
  const [endpoint, setEndpoint] = useState('');
  const [data, setData] = useState('');
  const emit = () =>
    mock.act(async () => {
      const merged = data.trim() === '' ? undefined : parsed(data);
      const started = await control<unknown[]>('POST', '/events', {
        event,
        ...(merged === undefined ? {} : { data: merged }),
        ...(endpoint === '' ? {} : { endpointId: Number(endpoint) }),
      });
      // Said, not silent: the mock refuses nothing here, it just has no one to send to.
      if (started.length === 0) throw new Error(`No endpoint is subscribed to ${event}: nothing was sent.`);
    });
  return (
    <form
      class="emit"
      aria-labelledby="emit-title"
      onSubmit={(submitted) => {
        submitted.preventDefault();
        void emit();
      }}
    >
      <h3 id="emit-title">Emit a sample event</h3>
      <p>
        <label for="emit-event">Event</label>
        <select id="emit-event" value={event} onChange={(changed) => setEvent(changed.currentTarget.value)}>
          {(kinds.value ?? [event]).map((kind) => (
            <option key={kind}>{kind}</option>
          ))}
        </select>
      </p>
      <p>
        <label for="emit-endpoint">To</label>
        <select id="emit-endpoint" value={endpoint} onChange={(changed) => setEndpoint(changed.currentTarget.value)}>
          <option value="">every endpoint subscribed to it</option>
          {endpoints.map((e) => (
            <option key={e.id} value={String(e.id)}>
              #{e.id} {e.url}
            </option>
          ))}
        </select>
      </p>
      <p>
        <label for="emit-data">Data merged over the sample (JSON, optional)</label>
        <textarea id="emit-data" rows={2} value={data} onInput={(typed) => setData(typed.currentTarget.value)} />
      </p>
      <button type="submit">Emit event</button>
    </form>
  );
}
