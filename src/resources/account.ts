// `client.account` of both variants: `GET /account/me`.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { RequestOptions } from '../core/call/options.js';
import { COMMON_ROUTES } from '../contract/routes.js';
import type { Account } from '../schemas/account.js';
import { callOf } from './route.js';

/** `GET /account/me`, the same route in both variants. */
const ME = /* @__PURE__ */ callOf(COMMON_ROUTES, 'getAccount');

/** `GET /account/me`, the same in both variants. */
export class AccountResource {
  readonly #http: HttpClient;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient) {
    this.#http = http;
  }

  /** Account information of the key's account (scope `account:read`). */
  me(options?: RequestOptions): ApiPromise<Account> {
    return this.#http.request(ME, options);
  }
}

/** `client.account` of a `Variant1Client`: account information. */
export class Variant1Account extends AccountResource {}

/** `client.account` of a `Variant2Client`: account information. */
export class Variant2Account extends AccountResource {}
