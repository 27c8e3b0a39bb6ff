// The options of both clients: core's (the HTTP layer, pacing, logging) and the business layer's own.
import type { HttpClientOptions } from '../core/call/options.js';
import type { ClientPhoneFormat } from './phones.js';

/**
 * Options of `Variant1Client` and `Variant2Client`.
 *
 * @example
 * ```ts
 * const client = new Variant2Client({
 *   apiKey: process.env.BIZMSG_API_KEY, // a secret: keep it on the server
 *   baseUrl: 'https://api.example.com/api/v1',
 *   timeout: 10_000,
 *   rateLimit: { limit: 5, interval: 1000 },
 * });
 * ```
 */
export interface ClientOptions extends HttpClientOptions {
  /**
   * How the phone numbers a request carries (`to`, `phone`) are written before they are sent:
   * `'e164'` (`+4915112345678`), `'digits'` (`4915112345678`) or `'keep'` (as given). Each is
   * checked first, in any spelling (`normalizePhone`): an invalid number rejects the call with an
   * `InvalidArgumentError` and nothing is sent.
   * @default 'e164'
   */
  phoneFormat?: ClientPhoneFormat | undefined;
}
