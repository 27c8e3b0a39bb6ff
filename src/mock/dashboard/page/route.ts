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
] as const;

/** A view's name. */
export type ViewName = (typeof VIEWS)[number][0];

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
