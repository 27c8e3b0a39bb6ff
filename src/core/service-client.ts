import { HttpClient } from './http.js';
import type { ClientOptions } from './options.js';
import type { Protocol } from './protocol.js';
import type { RateLimitSnapshot } from './rate-limit-headers.js';

/** What both variant clients have: one request function, its base URL and rate-limit state. */
export abstract class ServiceClient {
  readonly #http: HttpClient;

  constructor(protocol: Protocol, options: ClientOptions | undefined) {
    this.#http = new HttpClient(protocol, options);
  }

  /** The request function the resources share. */
  protected get http(): HttpClient {
    return this.#http;
  }

  /** The base URL requests go to. */
  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /** The `X-RateLimit-*` values of the last response that carried them. */
  get rateLimit(): RateLimitSnapshot | undefined {
    return this.#http.rateLimit;
  }
}
