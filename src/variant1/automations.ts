// `client.automations` of Variant 1.
import type { ApiPromise } from '../core/call/api-promise.js';
import type { HttpClient } from '../core/call/http-client.js';
import type { RequestOptions } from '../core/call/options.js';
import type { BodyEncoder } from '../core/wire/call.js';
import { writingPhones, type ClientPhoneFormat } from '../resources/phones.js';
import { VARIANT1_ROUTES } from '../contract/routes.js';
import { callOf } from '../resources/route.js';
import type { AutomationExecution } from '../schemas/automation.js';
import type { AutomationTriggerParams } from '../schemas/automation-params.js';

const TRIGGER = /* @__PURE__ */ callOf(VARIANT1_ROUTES, 'triggerAutomation');

/** Variant 1 automation endpoints. */
export class Variant1Automations {
  readonly #http: HttpClient;
  readonly #to: BodyEncoder;

  /** @internal The clients create their resources. */
  constructor(http: HttpClient, phoneFormat: ClientPhoneFormat) {
    this.#http = http;
    this.#to = writingPhones(['to'], phoneFormat);
  }

  /** Triggers an automation flow (scope `automations:trigger`). */
  trigger(body: AutomationTriggerParams, options?: RequestOptions): ApiPromise<AutomationExecution> {
    return this.#http.request({ ...TRIGGER, body, encodeBody: this.#to }, options);
  }
}
