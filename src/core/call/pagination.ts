// What list() returns: a page, and a walk over every page (`for await`, prefetching).
import type { ListMeta } from '../../schemas/common.js';
import { describeValue, showValue } from '../../shared/describe.js';
import { InvalidArgumentError } from '../../shared/errors.js';
import { checkInteger, isRecord } from '../../shared/guards.js';
import { readArguments } from './arguments.js';
import { responseOf, type CallSpec, type ServiceResponse } from '../wire/call.js';
import type { HttpClient, PageData } from './http-client.js';
import type { ListRequestOptions, RequestOptions } from './options.js';
import { AbortError } from '../errors/classes.js';
import { readRateLimit, type RateLimitSnapshot } from '../wire/headers.js';

/** Fetches page `page` (1-based) of a list; `undefined` sends the call's own query unchanged. */
type PageFetcher<T> = (page: number | undefined, signal: AbortSignal | undefined) => Promise<PageData<T>>;

/** One page of a list response. */
export class Page<T> {
  /** Items of this page. */
  readonly data: T[];
  /** Pagination info; `undefined` when the response had none (then it is the only page). */
  readonly meta: ListMeta | undefined;
  readonly #fetch: PageFetcher<T>;
  readonly #received: ServiceResponse;
  #response: Response | undefined;

  /** @internal Pages come from `list()`; they are not built by hand. */
  constructor(fetch: PageFetcher<T>, { data, meta, received }: PageData<T>) {
    this.#fetch = fetch;
    this.data = data;
    this.meta = meta;
    this.#received = received;
  }

  /** The HTTP response of this page: status, headers and an unread copy of its body. */
  get response(): Response {
    this.#response ??= responseOf(this.#received);
    return this.#response;
  }

  /** The `X-RateLimit-*` values of this page's response, when it carried them. */
  get rateLimit(): RateLimitSnapshot | undefined {
    return readRateLimit(this.#received.headers, Date.now());
  }

  /** True when `meta` says a later page exists and this one was not empty. */
  hasNextPage(): boolean {
    return this.meta !== undefined && this.data.length > 0 && this.meta.current_page < this.meta.last_page;
  }

  /** Fetches the next page; check `hasNextPage()` first. */
  async getNextPage(options?: { signal?: AbortSignal | undefined }): Promise<Page<T>> {
    if (!this.hasNextPage()) {
      throw new InvalidArgumentError('There is no next page: check hasNextPage() before calling getNextPage().');
    }
    return new Page(this.#fetch, await this.#fetch(this.meta!.current_page + 1, options?.signal));
  }
}

/**
 * What `list()` returns: await it for the first `Page`, or `for await` over it for every item
 * of every page. Nothing is requested until it is awaited or iterated.
 */
export class PagePromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  readonly #fetch: PageFetcher<T>;
  readonly #prefetch: number;
  readonly #signal: AbortSignal | undefined;
  #first: Promise<Page<T>> | undefined;

  readonly #invalid: InvalidArgumentError | undefined;

  /**
   * @internal `list()` returns these; they are not built by hand. `invalid`: an argument error
   * found by `list()`, reported when the list is awaited or walked.
   */
  constructor(
    fetch: PageFetcher<T>,
    options: { prefetch: number; signal: AbortSignal | undefined },
    invalid?: InvalidArgumentError,
  ) {
    this.#fetch = fetch;
    this.#prefetch = options.prefetch;
    this.#signal = options.signal;
    this.#invalid = invalid;
  }

  then<A = Page<T>, B = never>(
    onFulfilled?: ((page: Page<T>) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#firstPageOnce().then(onFulfilled, onRejected);
  }

  /** Handles a failure to fetch the first page, as `Promise.prototype.catch`. */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<Page<T> | B> {
    return this.#firstPageOnce().catch(onRejected);
  }

  /** Runs `onFinally` once the first page is fetched or failed, as `Promise.prototype.finally`. */
  finally(onFinally?: (() => void) | null): Promise<Page<T>> {
    return this.#firstPageOnce().finally(onFinally);
  }

  /** `"PagePromise"`, for `Object.prototype.toString`. */
  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }

  /** Every item of every page, in order. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Every page, in order; with the `prefetch` option, later pages are fetched ahead. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    const first = await this.#firstPageOnce();
    yield first;
    if (this.#prefetch > 0) {
      yield* this.#prefetchedPages(first);
      return;
    }
    for (let page = first; page.hasNextPage();) {
      page = await page.getNextPage({ signal: this.#signal });
      yield page;
    }
  }

  /** Collects items across pages, stopping after `max` items when given. */
  async toArray(options: { max?: number | undefined } = {}): Promise<T[]> {
    const max = readArguments('the options of toArray()', () => maxOf(options));
    const items: T[] = [];
    if (max === 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }

  #firstPageOnce(): Promise<Page<T>> {
    // The argument error is made a rejection only now, when someone will handle it.
    this.#first ??=
      this.#invalid === undefined
        ? this.#fetch(undefined, this.#signal).then((data) => new Page(this.#fetch, data))
        : Promise.reject(this.#invalid);
    return this.#first;
  }

  /**
   * Keeps up to `prefetch` page requests in flight, yielding pages in order. `last_page` is
   * re-read from every page, so a list that grows or shrinks mid-walk is followed.
   */
  async *#prefetchedPages(first: Page<T>): AsyncGenerator<Page<T>, void, undefined> {
    if (!first.hasNextPage()) return;
    const controller = new AbortController();
    const onAbort = () => controller.abort(this.#signal!.reason);
    // A signal aborted while the first page was being read fires no more events.
    if (this.#signal?.aborted) onAbort();
    else this.#signal?.addEventListener('abort', onAbort, { once: true });
    const inFlight: Array<Promise<Page<T>>> = [];
    let next = first.meta!.current_page + 1;
    let last = first.meta!.last_page;
    try {
      for (;;) {
        while (inFlight.length < this.#prefetch && next <= last)
          inFlight.push(this.#fetchAhead(next++, controller.signal));
        const page = inFlight.shift();
        if (page === undefined) return;
        const current = await page;
        // A page fetched ahead before the abort is not handed over after it.
        this.#throwIfAborted();
        yield current;
        if (!current.hasNextPage()) return;
        last = current.meta!.last_page;
      }
    } finally {
      this.#signal?.removeEventListener('abort', onAbort);
      controller.abort();
    }
  }

  #throwIfAborted(): void {
    if (this.#signal?.aborted) {
      throw new AbortError('The walk of the list was aborted by its signal', { cause: this.#signal.reason });
    }
  }

  #fetchAhead(page: number, signal: AbortSignal): Promise<Page<T>> {
    const pending = this.#fetch(page, signal).then((data) => new Page(this.#fetch, data));
    // A page fetched ahead may be abandoned when the walk stops early; its failure is not news.
    pending.catch(() => undefined);
    return pending;
  }
}

function maxOf(options: unknown): number {
  if (options === undefined) return Number.POSITIVE_INFINITY;
  if (!isRecord(options))
    throw new InvalidArgumentError(
      `The options of toArray() must be an object, e.g. { max: 100 }, got ${describeValue(options)}.`,
    );
  const max = options.max ?? Number.POSITIVE_INFINITY;
  if (typeof max !== 'number' || !(max >= 0))
    throw new InvalidArgumentError(`\`max\` must be a number >= 0, got ${showValue(max)}.`);
  return max;
}

/** `list()`'s options split into the walk's own (`prefetch`, `signal`) and the request's. */
function listOptions(options: unknown): {
  prefetch: number;
  signal: AbortSignal | undefined;
  request: RequestOptions | undefined;
} {
  if (options === undefined) return { prefetch: 0, signal: undefined, request: undefined };
  if (!isRecord(options))
    throw new InvalidArgumentError(
      `Request options must be an object, e.g. { prefetch: 2 }, got ${describeValue(options)}.`,
    );
  const { prefetch, ...request } = options as ListRequestOptions;
  return { prefetch: checkInteger('The `prefetch` option', prefetch, 0, 0, 32), signal: request.signal, request };
}

/** Starts a paginated `list()` call; the `page` in its query, if any, is the first page. */
export function paginate<T>(
  http: HttpClient,
  call: CallSpec<T[]>,
  options: ListRequestOptions | undefined,
): PagePromise<T> {
  let read: ReturnType<typeof listOptions>;
  try {
    read = readArguments('the options of list()', () => listOptions(options));
  } catch (error) {
    return new PagePromise<T>(
      () => Promise.reject(error),
      { prefetch: 0, signal: undefined },
      error as InvalidArgumentError,
    );
  }
  const { request } = read;
  const fetch: PageFetcher<T> = (page, signal) =>
    http.requestPage(
      page === undefined ? call : { ...call, query: { ...call.query, page } },
      signal === undefined ? request : { ...request, signal },
      page,
    );
  return new PagePromise(fetch, read);
}
