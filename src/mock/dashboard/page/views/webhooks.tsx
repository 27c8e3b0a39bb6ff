// Webhooks: the endpoints with their status (a disabled one with the e-mail its owner got, and a
// button to enable it again), a form to emit a sample event, and every delivery attempt.
import type { SentEmail, StoredWebhookEndpoint } from '../../../state/records.js';
import { control } from '../api.js';
import { timeOf } from '../format.js';
import type { MockView } from '../use-mock.js';
import { Deliveries } from './deliveries.js';
import { EmitForm } from './emit-form.js';

/** The webhooks view. */
export function WebhooksView({ mock }: { mock: MockView }) {
  const { webhooks, emails, now } = mock.snapshot!;
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        Webhooks
      </h2>
      <h3>Endpoints</h3>
      {webhooks.length === 0 ? (
        <p>No endpoint registered: register one through the API, the control API or bizmsg-mock --forward-to.</p>
      ) : (
        <ul class="endpoints">
          {webhooks.map((endpoint) => (
            <Endpoint key={endpoint.id} mock={mock} endpoint={endpoint} emails={emails} today={Date.parse(now)} />
          ))}
        </ul>
      )}
      <EmitForm mock={mock} endpoints={webhooks} />
      <Deliveries mock={mock} />
    </section>
  );
}

function Endpoint(props: {
  mock: MockView;
  endpoint: StoredWebhookEndpoint;
  emails: readonly SentEmail[];
  today: number;
}) {
  const { mock, endpoint, emails, today } = props;
  // The service's e-mail names the endpoint's URL in its subject (`Webhook endpoint … disabled`).
  const told = emails.filter((email) => email.subject === `Webhook endpoint ${endpoint.url} disabled`).at(-1);
  return (
    <li class="endpoint">
      <p>
        <strong>#{endpoint.id}</strong> <code>{endpoint.url}</code>{' '}
        <span class={`badge status-${endpoint.status}`}>{endpoint.status}</span>
        {endpoint.disabled_at === undefined ? '' : ` since ${timeOf(endpoint.disabled_at, today)}`}
      </p>
      <p class="muted">
        Events: {endpoint.events.join(', ')} · secret <code>{endpoint.secret}</code>
      </p>
      {told === undefined ? null : (
        <p class="email">
          E-mail to {told.to} at {timeOf(told.at, today)}: “{told.subject}”. {told.body}
        </p>
      )}
      {endpoint.status === 'disabled' ? (
        <button type="button" onClick={() => void mock.act(() => control('POST', `/webhooks/${endpoint.id}/enable`))}>
          Enable endpoint #{endpoint.id}
        </button>
      ) : null}
    </li>
  );
}
