// What every client method returns: a promise of the parsed payload, with the response on request.
import { responseOf, type ServiceResponse } from '../wire/call.js';
import { readRateLimit, type RateLimitSnapshot } from '../wire/headers.js';

/** A call's parsed result with the HTTP response it came from. */
export interface WithResponse<T> {
  /** The parsed payload, as awaiting the call gives it. */
  data: T;
  /** The HTTP response: status, headers and an unread copy of its body. */
  response: Response;
  /** The `X-RateLimit-*` values of this response, when it carried them. */
  rateLimit: RateLimitSnapshot | undefined;
}

/**
 * What every client method returns: await it for the parsed payload, or ask for
 * `.withResponse()` (payload and response) or `.asResponse()` (the response, unparsed).
 * The request starts at once; the body is parsed only when the payload is asked for.
 */
export class ApiPromise<T> implements PromiseLike<T> {
  readonly #received: Promise<ServiceResponse>;
  readonly #parse: (received: ServiceResponse) => T;
  #data: Promise<T> | undefined;

  /** @internal The clients' methods return these. `received`: the call under way; `parse`: turns its ServiceResponse into the payload (or throws). */
  constructor(received: Promise<ServiceResponse>, parse: (received: ServiceResponse) => T) {
    this.#received = received;
    this.#parse = parse;
  }

  /** An `ApiPromise` that rejects with `error` (an argument found invalid before sending). */
  static reject<T>(error: Error): ApiPromise<T> {
    return new ApiPromise<T>(Promise.reject(error), () => {
      throw error;
    });
  }

  then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    // `any`, as in Promise's own signature, so that `.catch((e: ApiError) => ...)` type-checks.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    onRejected?: ((reason: any) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.#parsed().then(onFulfilled, onRejected);
  }

  /** Handles a failure of the call, as `Promise.prototype.catch`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  catch<B = never>(onRejected?: ((reason: any) => B | PromiseLike<B>) | null): Promise<T | B> {
    return this.#parsed().catch(onRejected);
  }

  /** Runs `onFinally` once the call succeeded or failed, as `Promise.prototype.finally`. */
  finally(onFinally?: (() => void) | null): Promise<T> {
    return this.#parsed().finally(onFinally);
  }

  /** `"ApiPromise"`, for `Object.prototype.toString`. */
  get [Symbol.toStringTag](): string {
    return 'ApiPromise';
  }

  /** The parsed payload with the response it came from and that response's rate-limit values. */
  async withResponse(): Promise<WithResponse<T>> {
    const data = await this.#parsed();
    const received = await this.#received;
    return {
      data,
      response: responseOf(received),
      rateLimit: readRateLimit(received.headers, Date.now()),
    };
  }

  /** The response of a successful call, its body unread and not parsed (errors still reject). */
  async asResponse(): Promise<Response> {
    return responseOf(await this.#received);
  }

  #parsed(): Promise<T> {
    this.#data ??= this.#received.then(this.#parse);
    return this.#data;
  }
}
