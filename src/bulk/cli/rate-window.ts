// Whether the client is waiting for the service's rate window, read from its public parts: the
// `X-RateLimit-*` values of its last answer (`client.rateLimit`: none left until the reset, so its
// pacing holds the sends) and an `afterResponse` hook that sees a 429 (held until an answer that is
// not one). Nothing of the client's pacing is changed; this only watches it.

/** The part of a client read here. */
interface RateLimited {
  readonly rateLimit: { readonly limit: number; readonly remaining: number; readonly reset: number } | undefined;
}

/** A wait for the rate window: the window's limit, when known, and when it opens again (ms), when known. */
export interface RateWait {
  readonly limit: number | undefined;
  readonly until: number | undefined;
}

/** Watches one client for waits on the rate window. */
export class RateWindow {
  #client: RateLimited | undefined;
  #refused = false;

  /** The client's `hooks` option: each answer says whether the service refused for the rate. */
  readonly hooks = {
    afterResponse: [
      (_request: Request, _options: unknown, response: Response) => {
        this.#refused = response.status === 429;
      },
    ],
  };

  /** The client made with `hooks`. */
  watch(client: RateLimited): void {
    this.#client = client;
  }

  /** The wait under way at `now`, or undefined when the client is not waiting for the window. */
  waiting(now = Date.now()): RateWait | undefined {
    const last = this.#client?.rateLimit;
    const resetAt = last === undefined ? undefined : last.reset * 1000;
    const until = resetAt !== undefined && resetAt > now ? resetAt : undefined;
    if (!this.#refused && (last === undefined || last.remaining > 0 || until === undefined)) return undefined;
    return { limit: last?.limit, until };
  }
}

/** The wait in words: `waiting for the rate window (60 requests per window, opens in 42 s)`. */
export function rateWaitText(wait: RateWait, now = Date.now()): string {
  const details = [
    ...(wait.limit === undefined ? [] : [`${wait.limit} requests per window`]),
    ...(wait.until === undefined ? [] : [`opens in ${Math.max(1, Math.ceil((wait.until - now) / 1000))} s`]),
  ];
  return `waiting for the rate window${details.length === 0 ? '' : ` (${details.join(', ')})`}`;
}
