// The base of both variant clients: one request function shared by their resources.
import type { HttpClient } from './http-client.js';
import type { RateLimitSnapshot } from '../wire/headers.js';

/** What both variant clients have: one request function, its base URL and rate-limit state. */
export abstract class ServiceClient {
  readonly #http: HttpClient;

  /** @internal The variant clients create their request function and share it with their resources. */
  constructor(http: HttpClient) {
    this.#http = http;
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
