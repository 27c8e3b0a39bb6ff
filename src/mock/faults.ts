import { MAX_TIMER_MS } from './clock.js';
import { MockHttpError, MockNetworkError } from './http-error.js';
import type { MockVariant } from './options.js';

/** A fault to inject into matching requests. */
export interface FaultSpec {
  /** Which requests: `"METHOD /path"` (e.g. `"POST /messages/send"`, `:id` allowed) or a RegExp over it; default all. */
  route?: string | RegExp;
  /** Answer with this status and its spec error code. */
  status?: number;
  /** Error code of the answer (default: the code the spec gives `status` in this variant; required where it gives none or several). */
  code?: string;
  /** Fail the connection instead of answering. */
  networkError?: boolean;
  /** Wait this many ms (real time, 0 to 2147483647) before going on. */
  delay?: number;
  /** Apply to the next N matching requests (default 1, or unlimited with `rate`). */
  times?: number;
  /** Apply to this share (0 to 1) of matching requests, drawn from the seeded PRNG. */
  rate?: number;
}

/** The code of each status, where the spec's table gives the variant one code to use for it. */
const CODE_BY_STATUS: Record<MockVariant, Readonly<Record<number, string>>> = {
  1: { 400: 'VALIDATION_ERROR', 401: 'AUTHENTICATION_ERROR', 403: 'INSUFFICIENT_PERMISSIONS', 404: 'RESOURCE_NOT_FOUND', 429: 'RATE_LIMIT_EXCEEDED', 500: 'INTERNAL_ERROR', 502: 'MESSAGING_ERROR' },
  2: { 422: 'VALIDATION_ERROR', 401: 'AUTHENTICATION_ERROR', 403: 'INSUFFICIENT_PERMISSIONS', 404: 'RESOURCE_NOT_FOUND', 429: 'RATE_LIMIT_EXCEEDED', 500: 'INTERNAL_ERROR', 502: 'MESSAGING_ERROR' },
};

interface ActiveFault {
  spec: FaultSpec;
  matches: (target: string) => boolean;
  remaining: number;
}

/** Injected faults, applied before anything else looks at a request. */
export class FaultInjector {
  #faults: ActiveFault[] = [];
  readonly #random: () => number;
  readonly #codes: Readonly<Record<number, string>>;

  constructor(random: () => number, variant: MockVariant) {
    this.#random = random;
    this.#codes = CODE_BY_STATUS[variant];
  }

  /** Adds a fault. */
  inject(spec: FaultSpec): void {
    if (spec.status === undefined && spec.networkError !== true && spec.delay === undefined) {
      throw new TypeError('A fault needs a status, networkError: true or a delay.');
    }
    if (spec.rate !== undefined && !(spec.rate >= 0 && spec.rate <= 1)) throw new TypeError('A fault rate is a share from 0 to 1.');
    if (spec.delay !== undefined && !(spec.delay >= 0 && spec.delay <= MAX_TIMER_MS)) {
      throw new TypeError(`A fault delay is a number of ms from 0 to ${MAX_TIMER_MS}, got ${String(spec.delay)}.`);
    }
    const code = spec.status === undefined ? undefined : this.#codeOf(spec.status, spec.code);
    const remaining = spec.times ?? (spec.rate === undefined ? 1 : Number.POSITIVE_INFINITY);
    this.#faults.push({ spec: { ...spec, code }, matches: matcher(spec.route), remaining });
  }

  /** Removes all faults. */
  clear(): void {
    this.#faults = [];
  }

  /** Applies the first fault that matches `METHOD /path` and is drawn, if any. */
  async apply(method: string, path: string): Promise<void> {
    const target = `${method} ${path}`;
    const fault = this.#faults.find((f) => f.remaining > 0 && f.matches(target));
    if (fault === undefined || (fault.spec.rate !== undefined && this.#random() >= fault.spec.rate)) return;
    fault.remaining -= 1;
    const { delay, networkError, status, code } = fault.spec;
    if (delay !== undefined) await new Promise((resolve) => setTimeout(resolve, delay));
    if (networkError === true) throw new MockNetworkError();
    if (status !== undefined) {
      const headers: Record<string, string> = status === 429 ? { 'retry-after': '1' } : {};
      throw new MockHttpError(status, code!, `Injected fault: ${status}.`, {}, headers);
    }
  }

  #codeOf(status: number, code: string | undefined): string {
    if (!(Number.isInteger(status) && status >= 400 && status <= 599)) throw new TypeError(`A fault status is an error status from 400 to 599, got ${String(status)}.`);
    if (code !== undefined) return code;
    if (!Object.hasOwn(this.#codes, status)) {
      throw new TypeError(`The spec gives status ${status} no single error code in this variant: give the fault a code too.`);
    }
    return this.#codes[status]!;
  }
}

function matcher(route: FaultSpec['route']): (target: string) => boolean {
  if (route === undefined) return () => true;
  if (route instanceof RegExp) return (target) => route.test(target);
  const pattern = new RegExp(`^${route.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`);
  return (target) => pattern.test(target);
}
