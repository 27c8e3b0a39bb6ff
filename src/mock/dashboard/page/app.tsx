// The page's frame: the mock named in the header with its virtual time and live status, the
// navigation between views, the alert where a refused action says why, and the view shown.
import { useEffect, useRef, useState } from 'preact/hooks';
import { hrefOf, useRoute, viewsOf, type Route } from './route.js';
import { TokenForm } from './token-form.js';
import { useMock, virtualNow, type MockView } from './use-mock.js';
import { timeOf } from './format.js';
import { CampaignsView } from './views/campaigns.js';
import { ClockView } from './views/clock.js';
import { ContactsView } from './views/contacts.js';
import { DriftView } from './views/drift.js';
import { ConversationsView } from './views/conversations.js';
import { FaultsView } from './views/faults.js';
import { RequestsView } from './views/requests.js';
import { WebhooksView } from './views/webhooks.js';

const STATUS_TEXT = {
  connecting: 'Connecting…',
  live: 'Live',
  offline: 'Offline: retrying',
  unauthorized: 'Needs the control token',
} as const;

/** The whole page. */
export function App() {
  const mock = useMock();
  const asked = useRoute();
  const views = viewsOf(mock.mode ?? 'mock');
  // A view this mode has not (a proxy has no conversations) opens its first one.
  const route: Route = views.some(([name]) => name === asked.view) ? asked : { view: views[0]![0], detail: undefined };
  const main = useRef<HTMLElement>(null);
  const shown = useRef<string | undefined>(undefined);
  // Another view takes the focus to its heading, so that keyboard and screen reader users start there.
  useEffect(() => {
    if (shown.current !== undefined && shown.current !== route.view)
      main.current?.querySelector<HTMLElement>('h2')?.focus();
    shown.current = route.view;
  }, [route.view]);
  if (mock.status === 'unauthorized') return <TokenForm />;
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(event) => {
          // The fragment names the view: following the link would open another one.
          event.preventDefault();
          main.current?.querySelector<HTMLElement>('h2')?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="top">
        <h1>{mock.mode === 'proxy' ? 'bizmsg proxy' : mock.mode === 'replay' ? 'bizmsg replay' : 'bizmsg mock'}</h1>
        <p class="mock-name">{nameOf(mock)}</p>
        {mock.mode === 'mock' ? <VirtualTime mock={mock} /> : null}
        <p class={`live live-${mock.status}`} role="status">
          {STATUS_TEXT[mock.status]}
        </p>
      </header>
      <nav aria-label="Views">
        <ul>
          {views.map(([name, title]) => (
            <li key={name}>
              <a href={hrefOf(name)} aria-current={route.view === name ? 'page' : undefined}>
                {title}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="alert" role="alert">
        {mock.error === undefined ? null : <p>{mock.error}</p>}
      </div>
      <main id="main" ref={main}>
        {mock.mode === undefined || (mock.mode === 'mock' && mock.snapshot === undefined) ? (
          <p class="loading">Reading the mock…</p>
        ) : (
          <View route={route} mock={mock} />
        )}
      </main>
    </>
  );
}

function View({ route, mock }: { route: Route; mock: MockView }) {
  switch (route.view) {
    case 'conversations':
      return <ConversationsView mock={mock} phone={route.detail} />;
    case 'contacts':
      return <ContactsView mock={mock} />;
    case 'campaigns':
      return <CampaignsView mock={mock} />;
    case 'webhooks':
      return <WebhooksView mock={mock} />;
    case 'requests':
      return <RequestsView mock={mock} />;
    case 'clock':
      return <ClockView mock={mock} />;
    case 'faults':
      return <FaultsView mock={mock} />;
    case 'drift':
      return <DriftView mock={mock} />;
  }
}

/** The header's line naming what is served: its variant, base URL, and a proxy's target or a replay's recording. */
function nameOf({ health }: MockView): string {
  if (health === undefined) return '';
  const served = `Variant ${health.variant} · ${health.baseUrl}`;
  if (!('mode' in health)) return served;
  return health.mode === 'proxy' ? `${served} → ${health.target ?? ''}` : `${served} · from ${health.recording ?? ''}`;
}

/** The virtual clock, running on between reads. */
function VirtualTime({ mock }: { mock: MockView }) {
  const [, setNow] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const now = virtualNow(mock);
  return (
    <p class="virtual-time">
      Virtual time <time dateTime={new Date(now).toISOString()}>{timeOf(now)}</time> UTC
    </p>
  );
}
