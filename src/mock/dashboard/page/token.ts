// The control token, for a mock bound to a shared address: taken from the `#token=` fragment the
// banner prints (a fragment never reaches a server or a log) or typed in, and kept for this tab only.

const KEY = 'bizmsg-mock-control-token';

/** Moves a `#token=…` fragment into this tab's storage and out of the address bar (and its history). */
export function adoptFragmentToken(): void {
  const found = /^#token=([^&]+)/.exec(location.hash);
  if (found === null) return;
  sessionStorage.setItem(KEY, decodeURIComponent(found[1]!));
  history.replaceState(null, '', `${location.pathname}${location.search}`);
}

/** The token this tab sends, if any. */
export function controlToken(): string | undefined {
  return sessionStorage.getItem(KEY) ?? undefined;
}

/** Keeps `token` for this tab. */
export function setControlToken(token: string): void {
  sessionStorage.setItem(KEY, token);
}
