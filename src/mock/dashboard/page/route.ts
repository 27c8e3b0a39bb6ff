// Which view the page shows: the URL's fragment (`#/requests`, `#/conversations/4915112345678`), so
// that the browser's back button, a bookmark and a reload keep it.
import { useEffect, useState } from 'preact/hooks';

/** The views, in the order of the navigation, with their titles. */
export const VIEWS = [
  ['conversations', 'Conversations'],
  ['contacts', 'Contacts'],
  ['campaigns', 'Campaigns'],
  ['webhooks', 'Webhooks'],
  ['requests', 'Requests'],
  ['clock', 'Clock'],
  ['faults', 'Faults'],
  ['drift', 'Drift'],
] as const;

/** A view's name. */
export type ViewName = (typeof VIEWS)[number][0];

/** What the page shows: the mock, a proxy to the real service, or a replay of its recording. */
export type PageMode = 'mock' | 'proxy' | 'replay';

/**
 * The views a mode has, in the order of the navigation: a proxy and a replay hold no state (no
 * conversations, clock or faults), only their journal, and a proxy its drift report.
 */
export function viewsOf(mode: PageMode): ReadonlyArray<(typeof VIEWS)[number]> {
  if (mode === 'mock') return VIEWS.filter(([name]) => name !== 'drift');
  return VIEWS.filter(([name]) => name === 'requests' || (mode === 'proxy' && name === 'drift'));
}

/** The view shown and what follows its name in the fragment (a conversation's phone). */
export interface Route {
  readonly view: ViewName;
  readonly detail: string | undefined;
}

/** The route of a fragment; anything unknown is the conversations. */
export function routeOf(hash: string): Route {
  const [, name, detail] = /^#\/(\w+)(?:\/(.+))?$/.exec(hash) ?? [];
  const view = VIEWS.find(([known]) => known === name)?.[0] ?? 'conversations';
  return { view, detail: detail === undefined ? undefined : decodeURIComponent(detail) };
}

/** The fragment of a route. */
export function hrefOf(view: ViewName, detail?: string): string {
  return detail === undefined ? `#/${view}` : `#/${view}/${encodeURIComponent(detail)}`;
}

/** The current route, following the fragment. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => routeOf(location.hash));
  useEffect(() => {
    const follow = () => setRoute(routeOf(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  return route;
}
